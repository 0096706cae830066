/**
 * The address rule and the per-hop vetting, checked without opening any socket. Targets that are
 * not loopback (metadata, RFC 1918, public) are only ever classified here, never connected to.
 */
import { describe, expect, it } from 'vitest';
import { isPrivateAddress, parseIPv6 } from './address.ts';
import { type FetchPolicy, FetchRefused } from './policy.ts';
import { vetTarget } from './vet.ts';

const PRIVATE = [
  '127.0.0.1',
  '127.255.255.254',
  '10.0.0.1',
  '10.255.255.255',
  '172.16.0.1',
  '172.31.255.255',
  '192.168.1.1',
  '169.254.169.254',
  '169.254.0.1',
  '100.64.0.1',
  '100.127.255.255',
  '0.0.0.0',
  '0.1.2.3',
  '192.0.0.8',
  '192.0.2.1',
  '198.18.0.1',
  '198.51.100.7',
  '203.0.113.9',
  '224.0.0.1',
  '239.255.255.250',
  '240.0.0.1',
  '255.255.255.255',
  '::',
  '::1',
  '[::1]',
  '0:0:0:0:0:0:0:1',
  '::ffff:127.0.0.1',
  '::ffff:7f00:1',
  '::ffff:10.0.0.1',
  '::ffff:a9fe:a9fe',
  '::ffff:0:7f00:1',
  '::127.0.0.1',
  'fc00::1',
  'fd12:3456:789a::1',
  'fe80::1',
  'fe80::1%eth0',
  'fec0::1',
  'ff02::1',
  '64:ff9b::7f00:1',
  '64:ff9b:1::1',
  '100::1',
  '2002:7f00:1::1',
  '2002:a9fe:a9fe::1',
  '2001::1',
  '2001:db8::1',
  '3fff::1',
];

const PUBLIC = [
  '8.8.8.8',
  '1.1.1.1',
  '93.184.216.34',
  '9.255.255.255',
  '11.0.0.0',
  '100.63.255.255',
  '100.128.0.0',
  '169.253.255.255',
  '172.15.255.255',
  '172.32.0.0',
  '192.167.255.255',
  '192.169.0.0',
  '223.255.255.255',
  '2606:4700:4700::1111',
  '2a00:1450:4001:81c::200e',
  '::ffff:8.8.8.8',
  '64:ff9b::808:808',
  '2002:808:808::1',
];

const NOT_ADDRESSES = ['', 'localhost', 'example.com', '1.2.3', '256.1.1.1', '01.2.3.4', '::ffff::1', 'g::1'];

describe('isPrivateAddress', () => {
  it.each(PRIVATE)('refuses %s', (ip) => {
    expect(isPrivateAddress(ip)).toBe(true);
  });
  it.each(PUBLIC)('accepts public %s', (ip) => {
    expect(isPrivateAddress(ip)).toBe(false);
  });
  it.each(NOT_ADDRESSES)('fails closed on non-address %j', (text) => {
    expect(isPrivateAddress(text)).toBe(true);
  });
});

describe('parseIPv6', () => {
  it('expands :: and embedded IPv4', () => {
    expect(parseIPv6('::1')).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseIPv6('::ffff:1.2.3.4')).toEqual([0, 0, 0, 0, 0, 0xffff, 0x0102, 0x0304]);
    expect(parseIPv6('1:2:3:4:5:6:7:8')).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(parseIPv6('1::2::3')).toBeNull();
    expect(parseIPv6('1:2:3:4:5:6:7:8:9')).toBeNull();
  });
});

const strict: FetchPolicy = {
  allowPrivate: false,
  maxBytes: 1024,
  timeoutMs: 1000,
  maxRedirects: 3,
  allowedProtocols: ['https:', 'http:'],
};

async function refusal(promise: Promise<unknown>): Promise<FetchRefused> {
  const error = await promise.then(
    () => new Error('expected a refusal'),
    (e: unknown) => e,
  );
  if (!(error instanceof FetchRefused)) throw error;
  return error;
}

describe('vetTarget (no sockets)', () => {
  it.each([
    'http://169.254.169.254/latest/meta-data/',
    'http://0xa9fea9fe/',
    'http://[::ffff:169.254.169.254]/',
    'http://10.0.0.1/',
    'http://192.168.0.1/',
    'http://172.16.0.1/',
    'http://100.64.0.1/',
    'http://[fd00::1]/',
    'http://[fe80::1]/',
    'http://[::ffff:10.0.0.1]/',
  ])('refuses %s as a private address', async (url) => {
    expect((await refusal(vetTarget(url, strict))).reason).toBe('private-address');
  });

  it('refuses a host name when ANY of its addresses is private', async () => {
    const resolve = async () => ['8.8.8.8', '10.1.2.3'];
    const error = await refusal(vetTarget('https://img.example.test/a.png', { ...strict, resolve }));
    expect(error.reason).toBe('private-address');
    expect(error.url).toBe('https://img.example.test/a.png');
  });

  it('pins a public answer without contacting it', async () => {
    const resolve = async () => ['2606:4700:4700::1111', '1.1.1.1'];
    const target = await vetTarget('https://img.example.test:8443/a.png?x=1', { ...strict, resolve });
    expect(target).toMatchObject({
      hostname: 'img.example.test',
      address: '2606:4700:4700::1111',
      family: 6,
    });
    expect(target.url.href).toBe('https://img.example.test:8443/a.png?x=1');
  });

  it('lets private addresses through only when allowPrivate is set', async () => {
    const target = await vetTarget('http://10.0.0.1/', { ...strict, allowPrivate: true });
    expect(target.address).toBe('10.0.0.1');
  });

  it('refuses unresolvable names and bogus resolver answers as dns', async () => {
    const failing = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    expect((await refusal(vetTarget('https://nope.test/', { ...strict, resolve: failing }))).reason).toBe(
      'dns',
    );
    const empty = async () => [];
    expect((await refusal(vetTarget('https://nope.test/', { ...strict, resolve: empty }))).reason).toBe(
      'dns',
    );
    const junk = async () => ['not-an-ip'];
    expect((await refusal(vetTarget('https://nope.test/', { ...strict, resolve: junk }))).reason).toBe('dns');
  });

  it.each([
    'ftp://example.test/a.png',
    'file:///etc/passwd',
    'data:image/png;base64,iVBORw0KGgo=',
    'javascript:alert(1)',
    'gopher://example.test/',
    'not a url',
    '/relative/path.png',
  ])('refuses %s as protocol', async (url) => {
    expect((await refusal(vetTarget(url, strict))).reason).toBe('protocol');
  });

  it('refuses http when only https is allowed', async () => {
    const httpsOnly: FetchPolicy = { ...strict, allowedProtocols: ['https:'] };
    expect((await refusal(vetTarget('http://8.8.8.8/', httpsOnly))).reason).toBe('protocol');
  });
});
