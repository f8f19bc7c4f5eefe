import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** A range of addresses as [network, prefix length]. */
export type AddressRange = readonly [Address, number];

/**
 * Where `wallboard/http` may connect for a script. Public addresses always; loopback and private
 * ones only when switched on; `ranges` are allowed whatever their class (the only way to reach
 * an address of any other class, say the unspecified or a multicast one).
 */
export interface HttpAllowPolicy {
  readonly loopback: boolean;
  readonly private: boolean;
  readonly ranges: readonly AddressRange[];
}

export const PUBLIC_ONLY: HttpAllowPolicy = Object.freeze({ loopback: false, private: false, ranges: [] });

/** `public` is routable; `special` is everything ipaddr.js names otherwise (refused unless listed). */
export type AddressClass = 'public' | 'loopback' | 'private' | 'special';

export interface ClassifiedAddress {
  /**
   * What the address is judged as: an IPv6 address carrying an IPv4 one comes out as that IPv4
   * address, so ::ffff:127.0.0.1, ::127.0.0.1 and 2002:7f00:1:: are all loopback.
   */
  address: Address;
  /** The address as written (parsed). */
  written: Address;
  class: AddressClass;
  /** ipaddr.js's name of the range, e.g. `uniqueLocal`. */
  range: string;
}

const PRIVATE_RANGES = new Set(['private', 'uniqueLocal', 'linkLocal', 'carrierGradeNat', 'localNat64']);

const RANGE_WORDS: Record<string, string> = {
  loopback: 'a loopback address',
  private: 'a private address',
  uniqueLocal: 'a private (unique local) address',
  linkLocal: 'a private (link-local) address',
  carrierGradeNat: 'a private (carrier-grade NAT) address',
  localNat64: 'a private (local-use NAT64) address',
  unspecified: 'the unspecified address',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
};

/** The IPv4 address in `bytes[at..at+4]`, each bit flipped when `flip`. */
function ipv4At(bytes: number[], at: number, flip = false): ipaddr.IPv4 {
  return new ipaddr.IPv4(bytes.slice(at, at + 4).map((byte) => (flip ? byte ^ 0xff : byte)));
}

/**
 * The IPv4 address an IPv6 one carries, where packets to it end up: IPv4-compatible (`::a.b.c.d`,
 * deprecated but still parsed), IPv4-translated (RFC 6145), NAT64's well-known prefix (RFC 6052),
 * 6to4 (RFC 3056) and Teredo's client, its bits flipped (RFC 4380). Otherwise null. (ipaddr.process
 * already turns the IPv4-mapped form into IPv4.)
 */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const bytes = address.toByteArray();
  switch (address.range()) {
    case 'unicast':
      // ::/96 holds the IPv4-compatible form; its :: and ::1 are IPv6's own and never get here.
      return bytes.slice(0, 12).every((byte) => byte === 0) ? ipv4At(bytes, 12) : null;
    case 'rfc6145':
      return ipv4At(bytes, 12);
    case 'rfc6052':
      // Only 64:ff9b::/96 says where the address is; the local-use 64:ff9b:1::/48 (RFC 8215)
      // places it as its network chose (see LOCAL_NAT64).
      return address.match(WELL_KNOWN_NAT64) ? ipv4At(bytes, 12) : null;
    case '6to4':
      return ipv4At(bytes, 2);
    case 'teredo':
      return ipv4At(bytes, 12, true);
    default:
      return null;
  }
}

const WELL_KNOWN_NAT64 = ipaddr.parseCIDR('64:ff9b::/96');
/** A translator of the local network: judged private, as where it leads cannot be read. */
const LOCAL_NAT64 = ipaddr.parseCIDR('64:ff9b:1::/48');

/** Classifies an IP address written as text; throws on text that is not one. */
export function classifyAddress(text: string): ClassifiedAddress {
  const written = ipaddr.process(text);
  const address = (written instanceof ipaddr.IPv6 && embeddedIPv4(written)) || written;
  const range = written instanceof ipaddr.IPv6 && written.match(LOCAL_NAT64) ? 'localNat64' : address.range();
  const kind: AddressClass =
    range === 'unicast'
      ? 'public'
      : range === 'loopback'
        ? 'loopback'
        : PRIVATE_RANGES.has(range)
          ? 'private'
          : 'special';
  return { address, written, class: kind, range };
}

function inRanges(policy: HttpAllowPolicy, address: Address): boolean {
  return policy.ranges.some(
    ([network, bits]) => network.kind() === address.kind() && address.match(network, bits),
  );
}

/** Null when the policy allows the address, else what it is ("a loopback address"). */
function refusalOf(policy: HttpAllowPolicy, text: string): { address: string; is: string } | null {
  const { address, written, class: kind, range } = classifyAddress(text);
  // A range may name the address as written (2002::/16) or what it carries (127.0.0.0/8).
  if (inRanges(policy, address) || inRanges(policy, written)) return null;
  if (
    kind === 'public' ||
    (kind === 'loopback' && policy.loopback) ||
    (kind === 'private' && policy.private)
  ) {
    return null;
  }
  const plain = address.toString();
  return {
    address: plain === text ? text : `${text} (${plain})`,
    is: RANGE_WORDS[range] ?? `a special-purpose address (${range})`,
  };
}

function listed(words: string[]): string {
  return words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

/** "public addresses only", "public and loopback addresses and 10.1.0.0/16", ... */
export function describeHttpAllow(policy: HttpAllowPolicy): string {
  const classes = ['public'];
  if (policy.loopback) classes.push('loopback');
  if (policy.private) classes.push('private');
  const ranges = policy.ranges.map(([network, bits]) => `${network.toString()}/${bits}`);
  if (classes.length === 1 && ranges.length === 0) return 'public addresses only';
  return listed([`${listed(classes)} addresses`, ...ranges]);
}

/** A destination the policy refuses; the message says what it is and how to allow it. */
export class DestinationRefusedError extends Error {
  constructor(what: string, policy: HttpAllowPolicy) {
    super(`${what}; the service allows ${describeHttpAllow(policy)} (see --scripts-http-allow)`);
    this.name = 'DestinationRefusedError';
  }
}

/**
 * Refuses a URL whose host is an IP address the policy does not allow. Needed because Node's
 * `net` connects to an IP-literal host without calling `lookup`, so checkedLookup never sees it.
 */
export function checkUrlHost(policy: HttpAllowPolicy, url: URL): void {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (!isIP(host)) return;
  const refusal = refusalOf(policy, host);
  if (refusal) throw new DestinationRefusedError(`${refusal.address} is ${refusal.is}`, policy);
}

export type Resolver = (
  hostname: string,
  options: LookupAllOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/**
 * A `lookup` for sockets that refuses a name when ANY address it resolves to is not allowed,
 * not just the first: with `all` the socket may try each of them (happy eyeballs), and an answer
 * mixing a public and an inner address is the usual DNS-rebinding trick. Checking here, on the
 * addresses the socket is given, leaves no gap between the check and the connection.
 */
export function checkedLookup(policy: HttpAllowPolicy, resolve: Resolver = dnsLookup): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const first = addresses[0];
      if (!first) {
        return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
      }
      for (const { address } of addresses) {
        const refusal = refusalOf(policy, address);
        if (refusal) {
          return callback(
            new DestinationRefusedError(`${hostname} resolves to ${refusal.address}, ${refusal.is}`, policy),
            [],
          );
        }
      }
      if (options.all) callback(null, addresses);
      else callback(null, first.address, first.family);
    });
  };
}

function parseRange(entry: string): AddressRange {
  const valid = entry.includes(':')
    ? ipaddr.IPv6.isValidCIDR(entry)
    : ipaddr.IPv4.isValidCIDRFourPartDecimal(entry);
  if (!valid) {
    throw new Error(
      `"${entry}" is not loopback, private, public or a CIDR range such as 10.1.0.0/16 or fd00::/8`,
    );
  }
  const [network, bits] = ipaddr.parseCIDR(entry);
  // Addresses are compared after ipaddr.process, which turns IPv4-mapped ones into IPv4.
  if (network instanceof ipaddr.IPv6 && network.isIPv4MappedAddress() && bits >= 96) {
    return [network.toIPv4Address(), bits - 96];
  }
  return [network, bits];
}

/**
 * Reads `--scripts-http-allow`: a comma-separated list of `loopback`, `private`, `public` (always
 * allowed; accepted for clarity) and CIDR ranges. Throws an Error naming a bad entry.
 */
export function parseHttpAllow(list: string): HttpAllowPolicy {
  let loopback = false;
  let privateToo = false;
  const ranges: AddressRange[] = [];
  for (const entry of list.split(',').map((part) => part.trim())) {
    if (entry === '' || entry === 'public') continue;
    if (entry === 'loopback') loopback = true;
    else if (entry === 'private') privateToo = true;
    else ranges.push(parseRange(entry));
  }
  return Object.freeze({ loopback, private: privateToo, ranges: Object.freeze(ranges) });
}
