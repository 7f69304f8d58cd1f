import { createSign, createVerify, randomBytes } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import forge from 'node-forge';
import { SignedXml } from 'xml-crypto';

/**
 * A test SAML2 IdP written here (no SAML IdP package is installed): a key and self-signed
 * certificate made with node-forge, metadata naming them, and responses to an AuthnRequest signed
 * with xml-crypto (the Assertion, RSA-SHA256, exclusive c14n), the way an IdP's page would post
 * them to the SP's ACS. Options make the bad responses no real IdP sends. Single logout over the
 * HTTP-Redirect binding (SAML bindings §3.4.4.1: the signature covers
 * `SAMLRequest|SAMLResponse=…&RelayState=…&SigAlg=…` as sent): checking the SP's signed
 * LogoutRequest, answering it, and sending the IdP's own LogoutRequest.
 */
export interface SamlAnswer {
  SAMLResponse: string;
  RelayState: string;
}

export interface AnswerOptions {
  attributes?: Record<string, string>;
  audience?: string;
  /** Seconds from now the assertion stays valid (negative: already expired). */
  validFor?: number;
  /** Sign with a key the metadata does not name. */
  otherKey?: boolean;
}

export function keyPair(): { key: string; cert: string; certB64: string } {
  const keys = forge.pki.rsa.generateKeyPair(2048);
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = '01';
  cert.validity.notBefore = new Date(Date.now() - 86_400_000);
  cert.validity.notAfter = new Date(Date.now() + 86_400_000 * 365);
  const attrs = [{ name: 'commonName', value: 'test-idp' }];
  cert.setSubject(attrs);
  cert.setIssuer(attrs);
  cert.sign(keys.privateKey, forge.md.sha256.create());
  const pem = forge.pki.certificateToPem(cert);
  return {
    key: forge.pki.privateKeyToPem(keys.privateKey),
    cert: pem,
    certB64: pem.replace(/-----[^-]+-----|\s+/g, ''),
  };
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

export function startSamlIdp(entityId = 'https://idp.test/saml') {
  const signing = keyPair();
  const other = keyPair();
  const ssoUrl = 'https://idp.test/sso';
  const sloUrl = 'https://idp.test/slo';
  const metadata = `<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${entityId}">
  <md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${signing.certB64}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
    <md:SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${sloUrl}"/>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${ssoUrl}"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`;

  /** The IdP's answer to the AuthnRequest in `authorizeUrl`, for the user `nameId`. */
  function answer(authorizeUrl: string, nameId: string, opts: AnswerOptions = {}): SamlAnswer {
    const url = new URL(authorizeUrl);
    const request = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest')!, 'base64')).toString('utf8');
    const requestId = /\sID="([^"]+)"/.exec(request)![1]!;
    const acs = /AssertionConsumerServiceURL="([^"]+)"/.exec(request)![1]!;
    const spEntity = /<(?:saml:)?Issuer[^>]*>([^<]+)</.exec(request)![1]!;
    const now = new Date();
    const until = new Date(now.getTime() + (opts.validFor ?? 300) * 1000);
    const from = new Date(Math.min(now.getTime(), until.getTime()) - 60_000);
    const iso = (d: Date) => d.toISOString().replace(/\.\d+Z$/, 'Z');
    const assertionId = `_a${randomBytes(16).toString('hex')}`;
    const attributes = Object.entries(opts.attributes ?? {})
      .map(
        ([k, v]) =>
          `<saml:Attribute Name="${esc(k)}"><saml:AttributeValue>${esc(v)}</saml:AttributeValue></saml:Attribute>`,
      )
      .join('');
    const assertion =
      `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${assertionId}" Version="2.0" IssueInstant="${iso(now)}">` +
      `<saml:Issuer>${esc(entityId)}</saml:Issuer>` +
      `<saml:Subject><saml:NameID>${esc(nameId)}</saml:NameID>` +
      `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">` +
      `<saml:SubjectConfirmationData InResponseTo="${requestId}" Recipient="${esc(acs)}" NotOnOrAfter="${iso(until)}"/>` +
      `</saml:SubjectConfirmation></saml:Subject>` +
      `<saml:Conditions NotBefore="${iso(from)}" NotOnOrAfter="${iso(until)}">` +
      `<saml:AudienceRestriction><saml:Audience>${esc(opts.audience ?? spEntity)}</saml:Audience></saml:AudienceRestriction>` +
      `</saml:Conditions>` +
      `<saml:AuthnStatement AuthnInstant="${iso(now)}" SessionIndex="${assertionId}">` +
      `<saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:Password</saml:AuthnContextClassRef></saml:AuthnContext>` +
      `</saml:AuthnStatement>` +
      (attributes ? `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` : '') +
      `</saml:Assertion>`;
    const response =
      `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ` +
      `ID="_r${randomBytes(16).toString('hex')}" Version="2.0" IssueInstant="${iso(now)}" Destination="${esc(acs)}" InResponseTo="${requestId}">` +
      `<saml:Issuer>${esc(entityId)}</saml:Issuer>` +
      `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
      assertion +
      `</samlp:Response>`;
    const sig = new SignedXml({
      privateKey: (opts.otherKey ? other : signing).key,
      canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
      signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    });
    sig.addReference({
      xpath: "//*[local-name(.)='Assertion']",
      digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
      transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
    });
    sig.computeSignature(response, {
      location: { reference: "//*[local-name(.)='Assertion']/*[local-name(.)='Issuer']", action: 'after' },
    });
    return {
      SAMLResponse: Buffer.from(sig.getSignedXml()).toString('base64'),
      RelayState: url.searchParams.get('RelayState') ?? '',
    };
  }

  const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
  const iso = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');

  /** A Redirect-binding query: the message deflated, signed with the IdP's key (or another, or none). */
  function redirectQuery(
    kind: 'SAMLRequest' | 'SAMLResponse',
    xml: string,
    relayState: string,
    sign: 'idp' | 'other' | 'none',
  ) {
    let q = `${kind}=${encodeURIComponent(deflateRawSync(Buffer.from(xml)).toString('base64'))}`;
    if (relayState) q += `&RelayState=${encodeURIComponent(relayState)}`;
    if (sign === 'none') return q;
    q += `&SigAlg=${encodeURIComponent(RSA_SHA256)}`;
    const signature = createSign('RSA-SHA256')
      .update(q)
      .sign((sign === 'other' ? other : signing).key, 'base64');
    return `${q}&Signature=${encodeURIComponent(signature)}`;
  }

  /**
   * The SP's LogoutRequest in `url` (the IdP's logout service), its signature checked with the SP's
   * certificate: the request's XML, or an Error when the signature is missing or does not verify.
   */
  function readLogoutRequest(
    url: string,
    spCertPem: string,
  ): { xml: string; id: string; nameId: string; sessionIndex?: string; relayState: string } {
    const query = url.slice(url.indexOf('?') + 1);
    const parts = Object.fromEntries(
      query.split('&').map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)]),
    );
    if (!parts.Signature || !parts.SigAlg) throw new Error('unsigned LogoutRequest');
    if (decodeURIComponent(parts.SigAlg) !== RSA_SHA256) throw new Error(`SigAlg ${decodeURIComponent(parts.SigAlg)}`);
    const signed = ['SAMLRequest', 'RelayState', 'SigAlg']
      .filter((k) => parts[k] !== undefined)
      .map((k) => `${k}=${parts[k]}`)
      .join('&');
    if (!createVerify('RSA-SHA256').update(signed).verify(spCertPem, decodeURIComponent(parts.Signature), 'base64'))
      throw new Error('LogoutRequest signature does not verify');
    const xml = inflateRawSync(Buffer.from(decodeURIComponent(parts.SAMLRequest!), 'base64')).toString('utf8');
    return {
      xml,
      id: /\sID="([^"]+)"/.exec(xml)![1]!,
      nameId: /<(?:saml2?:)?NameID[^>]*>([^<]+)</.exec(xml)![1]!,
      sessionIndex: /<(?:saml2?p?:)?SessionIndex[^>]*>([^<]+)</.exec(xml)?.[1],
      relayState: decodeURIComponent(parts.RelayState ?? ''),
    };
  }

  /** The IdP's LogoutResponse to the request `inResponseTo`, as the query for the SP's logout service. */
  function logoutResponse(
    inResponseTo: string,
    spLogoutUrl: string,
    relayState = '',
    sign: 'idp' | 'other' | 'none' = 'idp',
  ) {
    const xml =
      `<samlp:LogoutResponse xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ` +
      `ID="_lr${randomBytes(16).toString('hex')}" Version="2.0" IssueInstant="${iso()}" Destination="${esc(spLogoutUrl)}" InResponseTo="${esc(inResponseTo)}">` +
      `<saml:Issuer>${esc(entityId)}</saml:Issuer>` +
      `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
      `</samlp:LogoutResponse>`;
    return redirectQuery('SAMLResponse', xml, relayState, sign);
  }

  /** The IdP's own LogoutRequest for `nameId`, as the query for the SP's logout service. */
  function logoutRequest(
    nameId: string,
    spLogoutUrl: string,
    opts: { sessionIndex?: string; sign?: 'idp' | 'other' | 'none'; issueInstant?: string; relayState?: string } = {},
  ) {
    const id = `_lq${randomBytes(16).toString('hex')}`;
    const xml =
      `<samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ` +
      `ID="${id}" Version="2.0" IssueInstant="${opts.issueInstant ?? iso()}" Destination="${esc(spLogoutUrl)}">` +
      `<saml:Issuer>${esc(entityId)}</saml:Issuer>` +
      `<saml:NameID>${esc(nameId)}</saml:NameID>` +
      (opts.sessionIndex ? `<samlp:SessionIndex>${esc(opts.sessionIndex)}</samlp:SessionIndex>` : '') +
      `</samlp:LogoutRequest>`;
    return { id, query: redirectQuery('SAMLRequest', xml, opts.relayState ?? '', opts.sign ?? 'idp') };
  }

  return { entityId, metadata, ssoUrl, sloUrl, answer, readLogoutRequest, logoutResponse, logoutRequest };
}
