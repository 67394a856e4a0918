// The ceiling: a bare Fastify server answering a small fixed JSON object, no plugins, no logging.
// Whatever a Loopdesk route costs beyond this is ours; the ratio to it is the figure we track.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ status: 'ok', service: 'ceiling', version: 1 }));

await app.listen({ port: Number(process.env.PORT), host: process.env.HOST ?? '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
