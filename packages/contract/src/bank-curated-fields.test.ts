import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BANK_FIELD_LABELS, BankField, BankFieldSources, BankListEntry, SOURCED_BANK_FIELDS } from './admin-bank-versions.js';
import { AdminBank, BANK_CSV_COLUMNS, BANK_CSV_SOURCE_COLUMNS, BankInput, EditBankBody } from './admin-banks.js';
import { CURATED_TEXT_FIELD_NAMES, CURATED_TEXT_FIELDS, curatedTextOf } from './bank-curated-fields.js';

const properties = (schema: { properties: Record<string, unknown> }) => Object.keys(schema.properties);

describe('the curated bank fields are declared once', () => {
  it('when a field is declared, then every admin bank shape holds it, after the name and in the declared order', () => {
    for (const schema of [AdminBank, BankListEntry, BankInput]) {
      const keys = properties(schema);
      assert.deepEqual(keys.slice(keys.indexOf('name') + 1, keys.indexOf('name') + 1 + CURATED_TEXT_FIELD_NAMES.length), CURATED_TEXT_FIELD_NAMES, schema.title);
    }
    assert.deepEqual(properties(EditBankBody), ['name', ...CURATED_TEXT_FIELD_NAMES, 'position']);
    assert.deepEqual(properties(BankFieldSources), ['name', ...CURATED_TEXT_FIELD_NAMES, 'sbpParticipant', 'participantsListed']);
  });

  it('when a field is declared, then a change can name it, with its label, and its source is recorded', () => {
    const fields = BankField.anyOf.map((branch: { const: string }) => branch.const);
    for (const name of CURATED_TEXT_FIELD_NAMES) {
      assert.ok(fields.includes(name), name);
      assert.equal(BANK_FIELD_LABELS[name], CURATED_TEXT_FIELDS[name].label);
      assert.ok((SOURCED_BANK_FIELDS as readonly string[]).includes(name));
    }
  });

  it('when a field is declared, then the CSV export has its column and its source column', () => {
    assert.deepEqual(BANK_CSV_COLUMNS, ['bic', 'name', ...CURATED_TEXT_FIELD_NAMES]);
    assert.deepEqual(BANK_CSV_SOURCE_COLUMNS, ['nameSource', ...CURATED_TEXT_FIELD_NAMES.map((name) => `${name}Source`)]);
  });

  it("when a body sets a field, then the schema holds the declaration's rule, and the description says what empty means", () => {
    for (const name of CURATED_TEXT_FIELD_NAMES) {
      const declared: { pattern: string; maxLength?: number; description?: string } = CURATED_TEXT_FIELDS[name];
      const text = (BankInput.properties[name] as { anyOf: Array<{ pattern?: string; maxLength?: number; description?: string }> }).anyOf[0]!;
      assert.equal(text.pattern, declared.pattern, name);
      assert.equal(text.maxLength, declared.maxLength, name);
      assert.equal(text.description, declared.description === undefined ? undefined : `${declared.description} (empty: none)`, name);
    }
  });

  it('when a wider object is picked, then every declared field comes out, null when the object has none', () => {
    const picked = curatedTextOf({ nameEn: 'Sberbank', registryName: 'ПАО СБЕРБАНК' } as { nameEn: string });
    assert.deepEqual(Object.keys(picked), CURATED_TEXT_FIELD_NAMES);
    assert.equal(picked.nameEn, 'Sberbank');
    assert.ok(CURATED_TEXT_FIELD_NAMES.filter((name) => name !== 'nameEn').every((name) => picked[name] === null));
  });
});
