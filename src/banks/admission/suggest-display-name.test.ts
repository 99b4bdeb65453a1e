import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { suggestDisplayName } from './suggest-display-name.js';

describe('suggestDisplayName', () => {
  it('when the legal form leads or trails the quoted name, then both it and the quotes are gone', () => {
    assert.equal(suggestDisplayName('ООО "ФФИН Банк"'), 'ФФИН Банк');
    assert.equal(suggestDisplayName('"Банк "МБА-МОСКВА" ООО'), 'Банк МБА-МОСКВА');
    assert.equal(suggestDisplayName('АО "БАНК "ВОЛОГЖАНИН"'), 'БАНК ВОЛОГЖАНИН');
    assert.equal(suggestDisplayName('ТКБ БАНК ПАО'), 'ТКБ БАНК');
  });

  it('when the legal form is in parentheses, then the parentheses go with it', () => {
    assert.equal(suggestDisplayName('КИВИ Банк (АО)'), 'КИВИ Банк');
    assert.equal(suggestDisplayName('"СДМ-Банк" (ПАО)'), 'СДМ-Банк');
    assert.equal(suggestDisplayName('РНКО "Деньги.Мэйл.Ру" (ООО)'), 'РНКО Деньги.Мэйл.Ру');
  });

  it('when the name holds a banking kind (КБ, АКБ, НКО), then the kind stays: it is part of the name partners know', () => {
    assert.equal(suggestDisplayName('АО КБ "Пойдём!"'), 'КБ Пойдём!');
    assert.equal(suggestDisplayName('ООО "НКО "ЭЛЕКСИР"'), 'НКО ЭЛЕКСИР');
    assert.equal(suggestDisplayName('НКО АО НРД'), 'НКО НРД');
  });

  it('when a legal form is only part of a word, then the word stays whole', () => {
    assert.equal(suggestDisplayName('АО "Датабанк"'), 'Датабанк');
    assert.equal(suggestDisplayName('ПАО "НИКО-БАНК"'), 'НИКО-БАНК');
    assert.equal(suggestDisplayName('Межгосударственный банк'), 'Межгосударственный банк');
  });

  it('when nothing but a legal form is left, then the registry name is suggested as it is', () => {
    assert.equal(suggestDisplayName('ООО'), 'ООО');
    assert.equal(suggestDisplayName('"АО"'), '"АО"');
  });
});
