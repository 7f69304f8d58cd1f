/** `GET /api/v1/xpack/license/detail`. */
export interface LicenseInfo {
  is_valid: boolean;
  corporation: string;
  edition: string;
  date_expired: string;
  asset_count: number;
  current_asset_count: number;
  license_id: string;
  date_issued: string;
}

/** No licence imported, a licence in force, or one past its last day (or otherwise not valid). */
export function licenseState(info: LicenseInfo | undefined): 'none' | 'valid' | 'expired' {
  if (!info?.license_id && !info?.corporation) return 'none';
  return info.is_valid ? 'valid' : 'expired';
}
