// Builds the partner portal into dist/portal, which the public listener serves at /portal/ (src/http/routes/portal.ts).
import { builtPageConfig } from './vite.config.mjs';

export default builtPageConfig({ root: './portal', base: '/portal/', outDir: '../dist/portal' });
