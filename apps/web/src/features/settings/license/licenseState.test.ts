import { describe, expect, it } from 'vitest';
import { licenseState, type LicenseInfo } from './licenseState.ts';

const info = (p: Partial<LicenseInfo>): LicenseInfo => ({
  is_valid: false,
  corporation: '',
  edition: '',
  date_expired: '',
  asset_count: 0,
  current_asset_count: 0,
  license_id: '',
  date_issued: '',
  ...p,
});

describe('licence state on the settings licence page', () => {
  it('tells no licence, a valid one and an expired (or otherwise invalid) one apart', () => {
    expect(licenseState(undefined)).toBe('none');
    expect(licenseState(info({}))).toBe('none');
    expect(licenseState(info({ license_id: 'x', corporation: 'Acme', is_valid: true }))).toBe('valid');
    expect(
      licenseState(info({ license_id: 'x', corporation: 'Acme', is_valid: false, date_expired: '2020-01-31' })),
    ).toBe('expired');
  });
});
