import path from 'node:path';

/**
 * Where the copy of a transferred file is kept with its ftp-log row (`has_file`):
 * `DATA_DIR/ftp_files/<first two characters of the row id>/<row id>`. Written by the SFTP paths
 * (`terminal/sftp/fileKeeper.ts`), served by `terminal/sftp/ftpFileRoutes.ts`, removed with the row
 * by the retention job (`ops/retention.ts`).
 */
export function ftpFilePath(dataDir: string, logId: string): string {
  return path.join(dataDir, 'ftp_files', logId.slice(0, 2), logId);
}
