import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../../errors.js';
import { MAX_PARTICIPANTS, readParticipants } from './read-participants.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const problemsOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof AppError);
    return { status: error.status, fields: (error.extra?.details ?? []).map((detail) => detail.field ?? `line ${detail.line}`), messages: (error.extra?.details ?? []).map((detail) => detail.message) };
  }
  assert.fail('expected a refusal');
};

describe('participant list reader', () => {
  it('when a JSON list has member ids, names, Latin names and BICs (either spelling), then each entry is read trimmed', () => {
    const read = readParticipants(bytes('{"participants":[{"memberId":"100000000111","name":" Сбербанк ","bic":"044525225"},{"member_id":"100000000004","name":"Т-Банк","name_en":"T-Bank"}]}'), 'application/json');
    assert.deepEqual(read, [
      { memberId: '100000000111', name: 'Сбербанк', nameEn: null, bic: '044525225' },
      { memberId: '100000000004', name: 'Т-Банк', nameEn: 'T-Bank', bic: null },
    ]);
  });

  it('when a CSV list has a header and quoted names, then its rows are read with BICs as strings', () => {
    const read = readParticipants(bytes('memberId,name,bic\n100000000111,"ПАО ""Сбербанк""",044525225\n100000000004,Т-Банк,\n'), 'text/csv');
    assert.deepEqual(read.map((entry) => [entry.memberId, entry.name, entry.bic]), [['100000000111', 'ПАО "Сбербанк"', '044525225'], ['100000000004', 'Т-Банк', null]]);
  });

  it('when entries are malformed, then one 422 names every problem by its place', () => {
    const refused = problemsOf(() => readParticipants(bytes('[{"memberId":100000000111,"name":"A"},{"memberId":"123","name":""},{"memberId":"100000000002","name":"B","bic":"12345"},{"memberId":"100000000003","name":"C"},{"memberId":"100000000003","name":"D"},7]'), 'application/json'));
    assert.equal(refused.status, 422);
    assert.deepEqual(refused.fields, ['[0].memberId', '[1].memberId', '[1].name', '[2].bic', '[4].memberId', '[5]']);
    assert.match(refused.messages[0]!, /not a number/);
  });

  it('when the body is not JSON, has no list, is empty, is another type or lists too many, then it is refused in words', () => {
    assert.match(problemsOf(() => readParticipants(bytes('{"participants":'), 'application/json')).messages[0]!, /not valid JSON/);
    assert.match(problemsOf(() => readParticipants(bytes('{"banks":[]}'), 'application/json')).messages[0]!, /participants array/);
    assert.match(problemsOf(() => readParticipants(bytes('[]'), 'application/json')).messages[0]!, /no participants/);
    assert.equal(problemsOf(() => readParticipants(bytes('x'), 'application/xml')).status, 415);
    assert.match(problemsOf(() => readParticipants(bytes('bic,title\n044525225,x\n'), 'text/csv')).messages.join(' '), /memberId column.*name column.*unknown column title/);
    const many = JSON.stringify(Array.from({ length: MAX_PARTICIPANTS + 1 }, (_, index) => ({ memberId: String(100000000000 + index), name: `B${index}` })));
    assert.match(problemsOf(() => readParticipants(bytes(many), 'application/json')).messages[0]!, /at most 10000/);
  });
});
