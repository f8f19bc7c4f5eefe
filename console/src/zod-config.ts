import { z } from 'zod';

// zod probes once whether it may compile validators with eval; the console's CSP forbids eval, so
// the probe would be refused and reported as a violation. Tell zod not to try.
z.config({ jitless: true });
