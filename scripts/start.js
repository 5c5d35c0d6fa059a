// `npm start`: build when needed, then serve the production server (default http://127.0.0.1:5173).
import { ensureBuild } from './ensure-build.js';

ensureBuild();
await import('./serve.js');
