import { describe, expect, it } from 'vitest';
import { CLOUD_PROVIDER_ATTRS } from '@gatehouse/contract';
import { CM, type CloudMessage } from '../cloudMessages.ts';
import { PROVIDERS } from './index.ts';

/** The console's account form shows each provider's attributes from the contract: the same ones the adapter reads. */
describe('cloud providers', () => {
  it.each(Object.keys(PROVIDERS))(
    '%s: the contract declares its attributes, secrets as secrets, and it has a name',
    (name) => {
      const p = PROVIDERS[name]!;
      const declared = CLOUD_PROVIDER_ATTRS[name] ?? [];
      expect(
        declared
          .filter((f) => f.kind !== 'secret')
          .map((f) => f.name)
          .sort(),
      ).toEqual([...p.attrs].sort());
      expect(
        declared
          .filter((f) => f.kind === 'secret')
          .map((f) => f.name)
          .sort(),
      ).toEqual([...p.secretAttrs].sort());
      expect(CM[`provider_${name}` as CloudMessage]).toBeDefined();
    },
  );

  it('declares no provider the server lacks', () => {
    expect(Object.keys(CLOUD_PROVIDER_ATTRS).sort()).toEqual(Object.keys(PROVIDERS).sort());
  });
});
