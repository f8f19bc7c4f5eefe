import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context';

export function attachRealtime(_app: FastifyInstance, _ctx: ServiceContext): void {}
