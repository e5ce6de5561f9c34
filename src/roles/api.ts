import { buildAppSchema } from '../graphql/schema.js';
import { createHttpServer } from '../http/server.js';
import { plainRoutes, resolvers, rest } from '../modules/index.js';
import type { Role } from './role.js';

/** The api role: GraphQL, its streams, /v1, the console and the plain routes, from the modules' list. */
export const apiRole: Role = {
  name: 'api',
  async start({ services, publicUrlSet }) {
    const { config, log } = services;
    const schema = await buildAppSchema(services.pubsub, resolvers);
    const http = await createHttpServer(services, schema, { rest, plainRoutes });
    await http.listen({ port: config.PORT, host: config.HOST });
    const address = http.server.address();
    const port = typeof address === 'object' && address ? address.port : config.PORT;
    const url = `http://127.0.0.1:${port}`;
    if (!publicUrlSet) config.PUBLIC_URL = `http://localhost:${port}`;
    log.info({ url }, 'api listening');
    return { http, url, stop: () => http.close() };
  },
};
