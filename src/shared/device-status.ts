import { z } from 'zod';
import { timestampSchema } from './common';
import { heartbeatSchema } from './device';

/**
 * A device's diagnostics as `GET /devices/:tag/status` answers them: its last heartbeat, with
 * the time the service received it. Fields a newer device adds are dropped, not refused.
 */
export const deviceStatusSchema = z.object({ ...heartbeatSchema.shape, received_at: timestampSchema });
export type DeviceStatus = z.infer<typeof deviceStatusSchema>;
