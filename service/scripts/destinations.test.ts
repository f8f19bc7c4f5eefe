import type { LookupAddress } from 'node:dns';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCommand } from '../cli-options';
import {
  checkedLookup,
  checkUrlHost,
  classifyAddress,
  describeHttpAllow,
  parseHttpAllow,
  PUBLIC_ONLY,
  type HttpAllowPolicy,
  type Resolver,
} from './destinations';
import { httpGet, httpGetJson } from './http-library';

// Only servers on 127.0.0.1 and 127.0.0.2 are ever connected to; every other address in here is
// refused before a socket is opened, or only classified.
const LOOPBACK = parseHttpAllow('loopback');
const PRIVATE = parseHttpAllow('private');
const EVERYTHING_NAMED = parseHttpAllow('loopback,private');
const signal = new AbortController().signal;

const ALLOWS_PUBLIC_ONLY = '; the service allows public addresses only (see --scripts-http-allow)';

function listen(host: string, handler: (request: IncomingMessage, response: ServerResponse) => void) {
  const server = createServer(handler);
  return new Promise<{ server: Server; base: string }>((resolve) =>
    server.listen(0, host, () =>
      resolve({ server, base: `http://${host}:${(server.address() as AddressInfo).port}` }),
    ),
  );
}

function redirect(response: ServerResponse, location: string, status = 302) {
  response.statusCode = status;
  response.setHeader('location', location);
  response.end();
}

let a: { server: Server; base: string };
let b: { server: Server; base: string };
const hitsOfA: string[] = [];

beforeAll(async () => {
  a = await listen('127.0.0.1', (request, response) => {
    const url = request.url ?? '/';
    hitsOfA.push(url);
    const hop = /^\/hop\/(\d+)$/.exec(url);
    if (url === '/json') response.end('{"value":42}');
    else if (url === '/echo')
      response.end(JSON.stringify({ authorization: request.headers.authorization ?? null }));
    else if (url === '/to-echo') redirect(response, '/echo', 307);
    else if (url === '/to-b-echo') redirect(response, `${b.base}/echo`);
    else if (url === '/to-file') redirect(response, 'file:///etc/passwd');
    else if (url === '/to-mapped')
      redirect(response, `http://[::ffff:127.0.0.1]:${new URL(a.base).port}/json`);
    else if (hop) redirect(response, Number(hop[1]) > 0 ? `/hop/${Number(hop[1]) - 1}` : '/json', 301);
    else response.end('here');
  });
  b = await listen('127.0.0.2', (request, response) => {
    if (request.url === '/to-a') redirect(response, `${a.base}/json`);
    else if (request.url === '/echo')
      response.end(JSON.stringify({ authorization: request.headers.authorization ?? null }));
    else response.end('b here');
  });
});
afterAll(async () => {
  for (const { server } of [a, b]) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

describe('classifying addresses', () => {
  it('tells public, loopback, private and special addresses apart', () => {
    const classes: Record<string, string[]> = {
      public: ['8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111'],
      loopback: ['127.0.0.1', '127.255.0.9', '::1', '::ffff:127.0.0.1'],
      private: [
        '10.0.0.1',
        '172.16.0.1',
        '172.31.255.255',
        '192.168.1.1',
        '100.64.0.1',
        '169.254.169.254',
        'fc00::1',
        'fd12:3456::1',
        'fe80::1',
        '::ffff:10.1.2.3',
      ],
      special: ['0.0.0.0', '::', '224.0.0.1', 'ff02::1', '255.255.255.255', '192.0.2.1', '64:ff9b::c000:201'],
    };
    for (const [kind, addresses] of Object.entries(classes)) {
      for (const address of addresses) expect(classifyAddress(address).class, address).toBe(kind);
    }
    expect(classifyAddress('::ffff:127.0.0.1').address.kind()).toBe('ipv4');
  });

  it('refuses private IP-literal hosts by default and allows them with `private`', () => {
    for (const host of ['10.0.0.1', '172.16.5.5', '192.168.0.10', '100.64.0.1', '[fc00::1]', '[fe80::1]']) {
      const url = new URL(`http://${host}:8080/`);
      expect(() => checkUrlHost(PUBLIC_ONLY, url), host).toThrow(
        /is a private .*address; the service allows public/,
      );
      expect(() => checkUrlHost(LOOPBACK, url), host).toThrow(/is a private/);
      expect(() => checkUrlHost(PRIVATE, url), host).not.toThrow();
    }
    expect(() => checkUrlHost(PUBLIC_ONLY, new URL('http://8.8.8.8/'))).not.toThrow();
    expect(() => checkUrlHost(PRIVATE, new URL('http://127.0.0.1/'))).toThrow(/loopback/);
    expect(() => checkUrlHost(PUBLIC_ONLY, new URL('http://example.com/'))).not.toThrow();
  });

  it('refuses special addresses whatever the classes allowed, unless a range lists them', () => {
    for (const host of ['0.0.0.0', '[::]', '224.0.0.1', '255.255.255.255']) {
      expect(() => checkUrlHost(EVERYTHING_NAMED, new URL(`http://${host}/`)), host).toThrow(/is (a|the) /);
    }
    expect(() => checkUrlHost(parseHttpAllow('0.0.0.0/32'), new URL('http://0.0.0.0/'))).not.toThrow();
  });
});

describe('IPv6 addresses that carry an IPv4 address', () => {
  // Each form, written around 127.0.0.1, 10.1.2.3 and 8.8.8.8. Teredo carries its client's
  // address with every bit flipped (RFC 4380): 127.0.0.1 is 80ff:fffe there, 8.8.8.8 f7f7:f7f7.
  const forms: [string, (v4: [string, string]) => string][] = [
    ['IPv4-mapped', ([hi, lo]) => `::ffff:${hi}:${lo}`],
    ['IPv4-compatible', ([hi, lo]) => `::${hi}:${lo}`],
    ['IPv4-translated (RFC 6145)', ([hi, lo]) => `::ffff:0:${hi}:${lo}`],
    ['NAT64 (64:ff9b::/96)', ([hi, lo]) => `64:ff9b::${hi}:${lo}`],
    ['6to4 (2002::/16)', ([hi, lo]) => `2002:${hi}:${lo}::1`],
    [
      'Teredo (2001:0::/32)',
      ([hi, lo]) => {
        const flip = (word: string) => (0xffff ^ parseInt(word, 16)).toString(16);
        return `2001:0:4136:e378:8000:63bf:${flip(hi)}:${flip(lo)}`;
      },
    ],
  ];
  const loopback: [string, string] = ['7f00', '1'];
  const inner: [string, string] = ['a01', '203'];
  const outer: [string, string] = ['808', '808'];

  it.each(forms)('judges %s as the IPv4 address inside it', (_name, write) => {
    expect(classifyAddress(write(loopback))).toMatchObject({ class: 'loopback' });
    expect(classifyAddress(write(loopback)).address.toString()).toBe('127.0.0.1');
    expect(classifyAddress(write(inner))).toMatchObject({ class: 'private' });
    expect(classifyAddress(write(outer))).toMatchObject({ class: 'public' });
    expect(classifyAddress(write(outer)).address.toString()).toBe('8.8.8.8');

    const at = (v4: [string, string]) => new URL(`http://[${write(v4)}]:8080/`);
    expect(() => checkUrlHost(PUBLIC_ONLY, at(loopback))).toThrow(
      `(127.0.0.1) is a loopback address${ALLOWS_PUBLIC_ONLY}`,
    );
    expect(() => checkUrlHost(LOOPBACK, at(inner))).toThrow(/\(10\.1\.2\.3\) is a private address/);
    expect(() => checkUrlHost(PUBLIC_ONLY, at(outer))).not.toThrow();
    expect(() => checkUrlHost(LOOPBACK, at(loopback))).not.toThrow();
  });

  it('refuses [::127.0.0.1] before connecting, as the loopback address it is', async () => {
    const port = new URL(a.base).port;
    hitsOfA.length = 0;
    await expect(httpGet([`http://[::127.0.0.1]:${port}/json`], signal, PUBLIC_ONLY)).rejects.toThrow(
      `http.get: http://[::7f00:1]:${port}/json is refused: ::7f00:1 (127.0.0.1) is a loopback address`,
    );
    await expect(checkedLookupOf(PUBLIC_ONLY, [{ address: '2002:7f00:1::1', family: 6 }])).rejects.toThrow(
      'rebind.example resolves to 2002:7f00:1::1 (127.0.0.1), a loopback address',
    );
    expect(hitsOfA).toEqual([]);
  });

  it('keeps the IPv6 forms of :: and ::1 and the IPv6 ranges listed', () => {
    expect(classifyAddress('::1')).toMatchObject({ class: 'loopback', range: 'loopback' });
    expect(classifyAddress('::')).toMatchObject({ class: 'special', range: 'unspecified' });
    // An IPv6 range listed allows what it names, whatever is inside.
    expect(() =>
      checkUrlHost(parseHttpAllow('2002::/16'), new URL('http://[2002:7f00:1::1]/')),
    ).not.toThrow();
    // A local-use NAT64 prefix (RFC 8215) places the IPv4 address as its network chose: private.
    expect(classifyAddress('64:ff9b:1::808:808')).toMatchObject({ class: 'private' });
  });
});

/** What checkedLookup answers for a name that resolves to `answer`. */
const checkedLookupOf = (policy: HttpAllowPolicy, answer: LookupAddress[]) =>
  new Promise<unknown>((resolve, reject) => {
    const resolver: Resolver = (_hostname, _options, callback) => callback(null, answer);
    checkedLookup(policy, resolver)('rebind.example', { all: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses),
    );
  });

describe('what wallboard/http may reach', () => {
  it('refuses loopback by default and reaches it when allowed', async () => {
    await expect(httpGet([`${a.base}/json`], signal, PUBLIC_ONLY)).rejects.toThrow(
      `http.get: ${a.base}/json is refused: 127.0.0.1 is a loopback address${ALLOWS_PUBLIC_ONLY}`,
    );
    await expect(httpGetJson([`${a.base}/json`], signal, PUBLIC_ONLY)).rejects.toThrow(
      /^http.getJson: .* is refused/,
    );
    expect(await httpGetJson([`${a.base}/json`], signal, LOOPBACK)).toEqual({ value: 42 });
    expect(await httpGetJson([`${b.base}/to-a`], signal, LOOPBACK)).toEqual({ value: 42 });
  });

  it('refuses private, IPv4-mapped and unspecified IP literals before connecting', async () => {
    const port = new URL(a.base).port;
    await expect(httpGet([`http://[::ffff:127.0.0.1]:${port}/json`], signal, PUBLIC_ONLY)).rejects.toThrow(
      `http.get: http://[::ffff:7f00:1]:${port}/json is refused: ::ffff:7f00:1 (127.0.0.1) is a loopback address`,
    );
    await expect(httpGet([`http://0.0.0.0:${port}/json`], signal, EVERYTHING_NAMED)).rejects.toThrow(
      /0\.0\.0\.0 is the unspecified address; the service allows public, loopback and private addresses/,
    );
    await expect(httpGet([`http://[::]:${port}/json`], signal, EVERYTHING_NAMED)).rejects.toThrow(
      /:: is the unspecified address/,
    );
    await expect(httpGet(['http://10.0.0.1:9/'], signal, PUBLIC_ONLY)).rejects.toThrow(
      `http.get: http://10.0.0.1:9/ is refused: 10.0.0.1 is a private address${ALLOWS_PUBLIC_ONLY}`,
    );
    await expect(httpGet(['http://[fd00::1]:9/'], signal, LOOPBACK)).rejects.toThrow(
      /fd00::1 is a private \(unique local\) address; the service allows public and loopback addresses/,
    );
  });

  it('checks a name after resolving it: localhost is loopback', async () => {
    const port = new URL(a.base).port;
    await expect(httpGet([`http://localhost:${port}/json`], signal, PUBLIC_ONLY)).rejects.toThrow(
      `http.get: http://localhost:${port}/json is refused: localhost resolves to 127.0.0.1, a loopback address`,
    );
    expect(await httpGetJson([`http://localhost:${port}/json`], signal, LOOPBACK)).toEqual({ value: 42 });
  });

  it('checks every redirect: an allowed server cannot send a script on to a refused one', async () => {
    const onlyB = parseHttpAllow('127.0.0.2/32');
    expect(await httpGet([`${b.base}/`], signal, onlyB)).toMatchObject({ status: 200, text: 'b here' });
    hitsOfA.length = 0;
    await expect(httpGet([`${b.base}/to-a`], signal, onlyB)).rejects.toThrow(
      `http.get: ${b.base}/to-a redirected to ${a.base}/json, which is refused: 127.0.0.1 is a loopback address; ` +
        'the service allows public addresses and 127.0.0.2/32 (see --scripts-http-allow)',
    );
    expect(hitsOfA).toEqual([]);
    await expect(httpGet([`${a.base}/to-mapped`], signal, LOOPBACK)).resolves.toMatchObject({ status: 200 });
    await expect(
      httpGet([`${a.base}/to-mapped`], signal, parseHttpAllow('127.0.0.1/32')),
    ).resolves.toMatchObject({
      status: 200,
    });
  });

  it('follows at most 5 redirects, to http and https only, dropping credentials across origins', async () => {
    expect(await httpGetJson([`${a.base}/hop/4`], signal, LOOPBACK)).toEqual({ value: 42 });
    await expect(httpGet([`${a.base}/hop/5`], signal, LOOPBACK)).rejects.toThrow(
      `http.get: ${a.base}/hop/5 redirected more than 5 times`,
    );
    await expect(httpGet([`${a.base}/to-file`], signal, LOOPBACK)).rejects.toThrow(
      `http.get: ${a.base}/to-file redirected to file:///etc/passwd, which is not an http or https URL`,
    );
    const headers = { headers: { Authorization: 'Bearer secret' } };
    expect(await httpGetJson([`${a.base}/to-echo`, headers], signal, LOOPBACK)).toEqual({
      authorization: 'Bearer secret',
    });
    expect(await httpGetJson([`${a.base}/to-b-echo`, headers], signal, LOOPBACK)).toEqual({
      authorization: null,
    });
  });
});

describe('the checked lookup', () => {
  const lookupWith = (policy: HttpAllowPolicy, answer: LookupAddress[], all = true) =>
    new Promise<unknown>((resolve, reject) => {
      const resolver: Resolver = (_hostname, _options, callback) => callback(null, answer);
      checkedLookup(policy, resolver)('service.test', { all }, (error, address, family) =>
        error ? reject(error) : resolve(all ? address : [address, family]),
      );
    });

  it('refuses a name when any of its addresses is refused, and hands on allowed ones', async () => {
    const mixed = [
      { address: '8.8.8.8', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ];
    await expect(lookupWith(PUBLIC_ONLY, mixed)).rejects.toThrow(
      `service.test resolves to 127.0.0.1, a loopback address${ALLOWS_PUBLIC_ONLY}`,
    );
    await expect(lookupWith(PUBLIC_ONLY, [{ address: 'fe80::1', family: 6 }])).rejects.toThrow(/link-local/);
    expect(await lookupWith(LOOPBACK, mixed)).toEqual(mixed);
    expect(await lookupWith(PUBLIC_ONLY, [{ address: '8.8.8.8', family: 4 }], false)).toEqual(['8.8.8.8', 4]);
  });

  it('resolves with the system resolver by default', async () => {
    const lookup = checkedLookup(PUBLIC_ONLY);
    const error = await new Promise((resolve) => lookup('localhost', { all: true }, resolve));
    expect(String(error)).toMatch(/localhost resolves to .*, a loopback address/);
  });
});

describe('--scripts-http-allow', () => {
  const policyOf = (argv: string[]) => {
    const command = parseCommand(argv);
    if (command.kind !== 'serve') throw new Error(`read as ${command.kind}`);
    return command.config.scriptsHttpAllow;
  };

  it('reads loopback, private, public and CIDR ranges; public addresses only by default', () => {
    expect(policyOf([])).toEqual(PUBLIC_ONLY);
    expect(describeHttpAllow(policyOf(['--scripts-http-allow', 'loopback, 10.1.0.0/16,fd00::/8']))).toBe(
      'public and loopback addresses, 10.1.0.0/16 and fd00::/8',
    );
    expect(parseHttpAllow('')).toEqual(PUBLIC_ONLY);
    expect(parseHttpAllow('public')).toEqual(PUBLIC_ONLY);
    expect(describeHttpAllow(PUBLIC_ONLY)).toBe('public addresses only');
    expect(describeHttpAllow(parseHttpAllow('private,loopback'))).toBe(
      'public, loopback and private addresses',
    );
    expect(describeHttpAllow(parseHttpAllow('::ffff:127.0.0.0/104'))).toBe(
      'public addresses and 127.0.0.0/8',
    );
  });

  it('refuses a bad entry, naming it', () => {
    for (const entry of ['lan', 'Loopback', '10.1/16', '10.0.0.0/33', '10.0.0.1', '::/129', 'example.com']) {
      expect(() => policyOf(['--scripts-http-allow', `loopback,${entry}`]), entry).toThrow(
        `--scripts-http-allow: "${entry}" is not loopback, private, public or a CIDR range such as 10.1.0.0/16`,
      );
    }
  });
});
