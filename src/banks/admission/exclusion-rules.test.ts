import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_EXCLUSION_RULES, matchingRule, MAX_PATTERN_LENGTH, patternProblems } from './exclusion-rules.js';

const excludedBy = (registryName: string, bic = '044525000') => matchingRule({ bic, registryName }, DEFAULT_EXCLUSION_RULES)?.value;

describe('exclusion rules', () => {
  it('when a registry name holds НКО as a word, then the default rule excludes it, wherever the word stands', () => {
    assert.equal(excludedBy('ООО НКО "ЮМани"'), 'НКО');
    assert.equal(excludedBy('НКО АО НРД'), 'НКО');
    assert.equal(excludedBy('ООО "НКО "ЭЛЕКСИР"'), 'НКО');
    assert.equal(excludedBy('НКО "МОНЕТА" (ООО)'), 'НКО');
  });

  it('when НКО is only part of a word (СИНКО-БАНК, НИКО-БАНК), then the bank stays a bank', () => {
    assert.equal(excludedBy('ООО КБ "СИНКО-БАНК"'), undefined);
    assert.equal(excludedBy('ПАО "НИКО-БАНК"'), undefined);
    assert.equal(excludedBy('АО "НК Банк"'), undefined);
  });

  it('when a settlement or payment НКО (РНКО, ПНКО) or the Interstate Bank is listed, then its default rule excludes it', () => {
    assert.equal(excludedBy('РНКО "Деньги.Мэйл.Ру" (ООО)'), 'РНКО');
    assert.equal(excludedBy('ООО ПНКО "ЭЛПЛАТ"'), 'ПНКО');
    assert.equal(excludedBy('Межгосударственный банк'), 'Межгосударственный банк');
    assert.equal(excludedBy('МЕЖГОСУДАРСТВЕННЫЙ БАНК (renamed)'), 'Межгосударственный банк', 'case and what follows do not matter');
    assert.equal(excludedBy('Межгосударственный финансовый банк'), undefined, 'the words must follow each other');
  });

  it('when a BIC rule names the bank, then it is excluded whatever its name', () => {
    const rules = [{ kind: 'bic' as const, value: '044525466', reason: 'closing' }];
    assert.equal(matchingRule({ bic: '044525466', registryName: 'АО КБ "РУСНАРБАНК"' }, rules)?.reason, 'closing');
    assert.equal(matchingRule({ bic: '044525467', registryName: 'АО КБ "РУСНАРБАНК"' }, rules), undefined);
  });

  it('when a pattern is written, then only 1 to 8 words of at most 100 characters are accepted, and regex syntax is plain text', () => {
    assert.deepEqual(patternProblems('НКО'), []);
    assert.deepEqual(patternProblems('Межгосударственный банк'), []);
    assert.equal(patternProblems('').length, 1);
    assert.equal(patternProblems('"()"').length, 1, 'no word in it');
    assert.equal(patternProblems('а '.repeat(9)).length, 1);
    assert.equal(patternProblems('x'.repeat(MAX_PATTERN_LENGTH + 1)).length, 1);
    assert.equal(patternProblems('a\u0000b').length, 1);
    const evil = { kind: 'name' as const, value: '(a+)+$' };
    const started = performance.now();
    assert.equal(matchingRule({ bic: '044525000', registryName: `${'a'.repeat(50_000)}!` }, [evil]), undefined);
    assert.ok(performance.now() - started < 1000, 'a pattern is words, never a regular expression');
  });
});
