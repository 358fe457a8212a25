// every module that declares a purge part, scopes, receipt kinds or OpenAPI words (their facts.ts), as the service loads them
import '../modules/attachments/facts';
import '../modules/auth/access/facts';
import '../modules/auth/apps/facts';
import '../modules/auth/consent/facts';
import '../modules/auth/grants/facts';
import '../modules/auth/organizations/facts';
import '../modules/auth/sandbox/facts';
import '../modules/idempotency/facts';
import '../modules/journal/facts';
import '../modules/products/facts';
import '../modules/receipts/facts';
import '../modules/webhooks/facts';
import { declareModuleFacts, openApiTags, pathParameterWords, purgeOrder, RECEIPT_KINDS, RESOURCE_TYPES, SCOPES, tableOwners } from './module-facts';

const words = {
  consent: { en: { title: 'Create gadgets', text: 'add gadgets' }, da: { title: 'Oprette dimser', text: 'tilføje dimser' } },
  openapi: 'Create gadgets',
};

describe("the modules' facts, as the kernel assembles them (src/shared/module-facts.ts)", () => {
  it('lists what the documents list, in their checked-in order, whichever module declares it', () => {
    expect([...SCOPES]).toEqual(['journal:prepare', 'journal:post', 'products:create', 'operations:read', 'journal:read']);
    expect([...RECEIPT_KINDS]).toEqual(['product.create', 'journal.post', 'attachment.add', 'journal.reverse', 'journal.batch']);
    expect([...RESOURCE_TYPES]).toEqual(['product', 'journal_entry', 'attachment', 'journal_batch']);
    expect(openApiTags().map(([name]) => name)).toEqual(['journal', 'products', 'operations', 'events', 'grant']);
    expect(pathParameterWords().entry_id).toBe('The id of a journal entry the app posted (a uuid).');
  });

  it('purges dependants first: each part before the parts of the modules its rows refer to', () => {
    expect(purgeOrder().map((p) => p.module)).toEqual([
      'access',
      'attachments',
      'consent',
      'grants',
      'idempotency',
      'journal',
      'products',
      'receipts',
      'sandbox',
      'webhooks',
      'apps',
      'organizations',
    ]);
  });

  it("takes a new module's facts without a change to the kernel: its scope, kind and tag follow the checked-in ones, its purge goes before organizations", () => {
    declareModuleFacts({
      module: 'aardvarks',
      scopes: { 'aardvarks:create': words },
      receipts: { kinds: ['aardvark.create'], resourceTypes: ['aardvark'] },
      openapi: { tags: { aardvarks: 'Aardvarks' } },
      purge: { parts: { organizations: ['DELETE FROM aardvarks WHERE organization_id = ANY($1::uuid[])'] }, refersTo: ['organizations'] },
      tables: ['aardvarks'],
    });
    expect(SCOPES.at(-1)).toBe('aardvarks:create');
    expect(RECEIPT_KINDS.at(-1)).toBe('aardvark.create');
    expect(RESOURCE_TYPES.at(-1)).toBe('aardvark');
    expect(openApiTags().at(-1)).toEqual(['aardvarks', 'Aardvarks']);
    const order = purgeOrder().map((p) => p.module);
    expect(order.indexOf('aardvarks')).toBeLessThan(order.indexOf('organizations'));
    expect(tableOwners().aardvarks).toBe('aardvarks');
  });

  it('refuses a fact two modules declare, naming both', () => {
    expect(() => declareModuleFacts({ module: 'customers', scopes: { 'products:create': words } })).toThrow(
      'the scope products:create is declared by both products and customers: one module owns it',
    );
    expect(() => declareModuleFacts({ module: 'customers', tables: ['journal_entries'] })).toThrow(
      'the table journal_entries is declared by both journal and customers',
    );
    expect(SCOPES).not.toContain('customers:create');
  });
});
