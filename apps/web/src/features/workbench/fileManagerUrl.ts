/** The web file manager (a page of its own, `entries/fileManager/`): its asset picker, or one asset's accounts. */
export const FILE_MANAGER_PATH = '/koko/elfinder/sftp/';

export function fileManagerUrl(assetId?: string): string {
  return assetId ? `${FILE_MANAGER_PATH}?${new URLSearchParams({ asset: assetId }).toString()}` : FILE_MANAGER_PATH;
}
