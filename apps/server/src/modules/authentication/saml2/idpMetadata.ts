import type { SettingsStore } from '../../settings/store.ts';
import { SSO_TIMEOUT_SECONDS } from '../sso/ssoSite.ts';

/** What the sign-in needs from the IdP's metadata document. */
export interface IdpMetadata {
  entityId: string;
  /** The SingleSignOnService of the HTTP-Redirect binding. */
  ssoUrl: string;
  /** Base64 DER of the signing certificates. */
  certs: string[];
  /** The SingleLogoutService of the HTTP-Redirect binding, when the IdP has one. */
  sloUrl?: string;
}

/** The metadata could not be read, did not parse or lacks a part (the message says which). */
export class IdpMetadataError extends Error {}

const MAX_METADATA_BYTES = 1 << 20;
const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

/** The value of attribute `name` in one start tag. */
function attr(tag: string, name: string): string | undefined {
  return new RegExp(`\\s${name}\\s*=\\s*"([^"]*)"`).exec(tag)?.[1]?.replace(/&amp;/g, '&');
}

function tags(xml: string, local: string): string[] {
  return xml.match(new RegExp(`<(?:[\\w.-]+:)?${local}\\b[^>]*>`, 'g')) ?? [];
}

/**
 * Reads the parts of an IdP's SAML2 metadata (EntityDescriptor → IDPSSODescriptor) by element
 * name, whatever the namespace prefixes: the entityID, the HTTP-Redirect SingleSignOnService and
 * the certificates of the KeyDescriptors for signing (or without `use`). The signature of the
 * responses is checked by node-saml against these certificates.
 */
export function parseIdpMetadata(xml: string): IdpMetadata {
  if (!/<(?:[\w.-]+:)?EntityDescriptor\b/.test(xml)) throw new IdpMetadataError('no EntityDescriptor');
  const entityId = attr(tags(xml, 'EntityDescriptor')[0]!, 'entityID');
  if (!entityId) throw new IdpMetadataError('no entityID');
  const sso = tags(xml, 'SingleSignOnService').find((t) => attr(t, 'Binding') === REDIRECT);
  const ssoUrl = sso && attr(sso, 'Location');
  if (!ssoUrl) throw new IdpMetadataError('no SingleSignOnService with the HTTP-Redirect binding');
  const certs: string[] = [];
  const keyRe = /<(?:[\w.-]+:)?KeyDescriptor\b([^>]*)>([\s\S]*?)<\/(?:[\w.-]+:)?KeyDescriptor>/g;
  for (const [, head, body] of xml.matchAll(keyRe)) {
    const use = attr(head ?? '', 'use');
    if (use && use !== 'signing') continue;
    const cert = /<(?:[\w.-]+:)?X509Certificate>([^<]+)</.exec(body ?? '')?.[1]?.replace(/\s+/g, '');
    if (cert) certs.push(cert);
  }
  if (certs.length === 0) throw new IdpMetadataError('no signing certificate');
  const slo = tags(xml, 'SingleLogoutService').find((t) => attr(t, 'Binding') === REDIRECT);
  const sloUrl = slo && attr(slo, 'Location');
  return { entityId, ssoUrl, certs, ...(sloUrl ? { sloUrl } : {}) };
}

/** The IdP metadata of the settings: SAML2_IDP_METADATA_URL when set (it wins), else the XML. */
export async function loadIdpMetadata(settings: SettingsStore): Promise<IdpMetadata> {
  const url = String((await settings.valueOf('SAML2_IDP_METADATA_URL')) ?? '').trim();
  let xml = String((await settings.valueOf('SAML2_IDP_METADATA_XML')) ?? '');
  if (url) {
    let res: Response;
    try {
      res = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(SSO_TIMEOUT_SECONDS * 1000) });
    } catch (e) {
      throw new IdpMetadataError(`the metadata URL did not answer (${(e as Error).message})`);
    }
    if (!res.ok) throw new IdpMetadataError(`the metadata URL answered ${res.status}`);
    if (Number(res.headers.get('content-length') ?? 0) > MAX_METADATA_BYTES) throw new IdpMetadataError('too large');
    xml = await res.text();
    if (xml.length > MAX_METADATA_BYTES) throw new IdpMetadataError('too large');
  }
  if (!xml.trim()) throw new IdpMetadataError('no IdP metadata');
  return parseIdpMetadata(xml);
}
