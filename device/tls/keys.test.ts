import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { certPem, keyPem, MIN_VERSION } from './keys.ts';

// a self-signed P-256 certificate (CN=keys-test, valid 2026-2036), PEM
const CERT = `-----BEGIN CERTIFICATE-----
MIIBfTCCASOgAwIBAgIUK30NMS30oPOJfoqbeKlSvK7sa84wCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJa2V5cy10ZXN0MB4XDTI2MTEyMTE0MTY0MVoXDTM2MTExODE0
MTY0MVowFDESMBAGA1UEAwwJa2V5cy10ZXN0MFkwEwYHKoZIzj0CAQYIKoZIzj0D
AQcDQgAEZBD7OrnIONSqE9pTAl0e8yg7JT8t5mk2XhbLcC0IzU9MSQS2YITRBu3P
xpwqlB/B8yL7kESuMVD3QZFPja9Um6NTMFEwHQYDVR0OBBYEFMIHc8KKYH4X6zZ0
s0uQL70QPdFfMB8GA1UdIwQYMBaAFMIHc8KKYH4X6zZ0s0uQL70QPdFfMA8GA1Ud
EwEB/wQFMAMBAf8wCgYIKoZIzj0EAwIDSAAwRQIgMRcs5/Ep07CjsU2iI/fO+3TX
T4OAXlUozjztcTub+EgCIQCzO64OVorm7LmHxblrjvvmI2/iL26RwTaQTUSzQ+jH
Zg==
-----END CERTIFICATE-----
`;

describe('TLS bridge keys and versions', () => {
  it('PEM keys pass unchanged; DER keys (PKCS#8, PKCS#1, SEC1) become PKCS#8 PEM', () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 });
    const pem = ec.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    expect(keyPem(Buffer.from(pem))).toBe(pem);
    expect(keyPem(ec.privateKey.export({ format: 'der', type: 'pkcs8' }))).toBe(pem);
    expect(keyPem(ec.privateKey.export({ format: 'der', type: 'sec1' }))).toBe(pem);
    expect(keyPem(rsa.privateKey.export({ format: 'der', type: 'pkcs1' }))).toBe(rsa.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString());
    expect(() => keyPem(Buffer.from('not a key'))).toThrow(/neither PEM nor DER/);
  });
  it('PEM certificates pass unchanged; DER becomes the same certificate in PEM; garbage throws', () => {
    expect(certPem(Buffer.from(CERT))).toBe(CERT);
    const der = new X509Certificate(CERT).raw;
    expect(new X509Certificate(certPem(der)).fingerprint256).toBe(new X509Certificate(CERT).fingerprint256);
    expect(certPem(der)).toMatch(/^-----BEGIN CERTIFICATE-----/);
    expect(() => certPem(Buffer.from('garbage'))).toThrow();
  });
  it('minimum versions of spec §3', () => {
    expect(MIN_VERSION).toEqual({ none: 'TLSv1', '1.1': 'TLSv1.1', '1.2': 'TLSv1.2', '1.3': 'TLSv1.3' });
  });
});
