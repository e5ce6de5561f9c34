import { isIP } from 'node:net';
import { z } from 'zod';

/**
 * Source addresses for MX delivery (docs/delivery.md, "Source addresses and warm-up"): local
 * addresses of the worker's machine, grouped in named pools. An account or one of its domains is
 * given a pool by the operator (operator_set_ip_pool); mail of the rest leaves from the pool
 * `default` when IP_POOLS has one, else from the address the machine picks.
 */
export interface SourceAddress {
  address: string;
  /** The EHLO name given from this address: its reverse DNS name (checked at start). */
  ehlo?: string;
  /** An address with a reputation already: no warm-up cap. */
  warmed?: boolean;
}

export type IpPools = Record<string, SourceAddress[]>;

export const POOL_NAME = /^[a-z0-9_-]{1,64}$/;

const hostName = z.string().regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i, 'an EHLO name is a host name');

export const ipPoolsSchema = z
  .record(
    z.string().regex(POOL_NAME, 'a pool name is lowercase letters, digits, _ and -'),
    z
      .array(
        z
          .object({
            address: z.string().refine((a) => isIP(a) !== 0, 'an address is an IPv4 or IPv6 address'),
            ehlo: hostName.optional(),
            warmed: z.boolean().optional(),
          })
          .strict(),
      )
      .min(1)
      .max(256),
  )
  .superRefine((pools, ctx) => {
    const seen = new Set<string>();
    for (const list of Object.values(pools)) {
      for (const { address } of list) {
        if (seen.has(address)) ctx.addIssue({ code: 'custom', message: `the address ${address} is in more than one pool` });
        seen.add(address);
      }
    }
  });

/**
 * The daily caps of a new address, day by day from its first send; past the last day it has none.
 * A common warm-up: volume doubling or so each day, over about two weeks.
 */
export const DEFAULT_WARMUP = [50, 100, 500, 1000, 5000, 10_000, 20_000, 40_000, 70_000, 100_000, 150_000, 250_000, 400_000, 600_000, 1_000_000];
