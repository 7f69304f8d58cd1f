import type { Bool } from '../schema.ts';

/** Replay storages, endpoints and endpoint rules (migration 1250); the interface's images (1251); command storages (1252). */
export interface TerminalStorageTables {
  terminal_replaystorage: {
    id: string;
    name: string;
    /** server (the local data directory) | s3 | ceph | swift | oss | azure | obs | cos | sftp */
    type: string;
    /** JSON object of the type's settings; secret keys sealed by the secret box (`gh1$…`). */
    meta: string;
    is_default: Bool;
    comment: string;
    created_by: string;
    date_created: string;
    date_updated: string;
  };
  terminal_commandstorage: {
    id: string;
    name: string;
    /** server (the database) | es */
    type: string;
    /** JSON object of the type's settings; secret keys sealed by the secret box (`gh1$…`). */
    meta: string;
    is_default: Bool;
    comment: string;
    created_by: string;
    date_created: string;
    date_updated: string;
  };
  terminal_session: {
    /** The storage holding the recording; NULL: `replay_path` is under the local data directory. */
    replay_storage_id: string | null;
  };
  terminal_endpoint: {
    id: string;
    name: string;
    host: string;
    https_port: number;
    http_port: number;
    ssh_port: number;
    rdp_port: number;
    mysql_port: number;
    mariadb_port: number;
    postgresql_port: number;
    redis_port: number;
    comment: string;
    created_by: string;
    date_created: string;
    date_updated: string;
  };
  terminal_endpointrule: {
    id: string;
    name: string;
    /** JSON list of addresses, CIDRs, ranges or `*`. */
    ip_group: string;
    priority: number;
    endpoint_id: string;
    is_active: Bool;
    comment: string;
    created_by: string;
    date_created: string;
    date_updated: string;
  };
  xpack_interface_image: {
    /** favicon | logo_index | logo_logout | login_image */
    name: string;
    content_type: string;
    /** The image, base64. */
    data: string;
    /** sha256 of the bytes: the version in the image's URL. */
    digest: string;
    date_updated: string;
  };
}
