/**
 * A self-signed TLS certificate for 127.0.0.1 and localhost, made with the openssl command: the
 * one set-up the dev receiver (kept in its directory across restarts) and the tests' HTTPS
 * receivers (a fresh one each) share.
 */
import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Certificate {
  /** PEM of the certificate, for a client to trust. */
  cert: string;
  /** PEM of its private key. */
  key: string;
  /** Where the certificate is (NODE_EXTRA_CA_CERTS may name it). */
  certFile: string;
}

/** The certificate and key in `dir` (cert.pem, key.pem), made with openssl when missing or expiring within a day. */
export function selfSignedCertificate(dir: string, commonName: string): Certificate {
  const certFile = join(dir, 'cert.pem');
  const keyFile = join(dir, 'key.pem');
  if (existsSync(certFile) && existsSync(keyFile)) {
    const cert = readFileSync(certFile, 'utf8');
    if (Date.parse(new X509Certificate(cert).validTo) > Date.now() + 86_400_000) return { cert, key: readFileSync(keyFile, 'utf8'), certFile };
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '365',
        '-subj',
        `/CN=${commonName}`,
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
        '-keyout',
        keyFile,
        '-out',
        certFile,
      ],
      { stdio: 'ignore' },
    );
  } catch (err) {
    throw new Error(`could not make a self-signed certificate with openssl (is the openssl command installed?): ${(err as Error).message}`, {
      cause: err,
    });
  }
  return { cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8'), certFile };
}
