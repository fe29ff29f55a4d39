# The calc-service image: docker build -f deploy/docker/calc-service.Dockerfile -t broker/calc-service .
# Its content (the pnpm deploy bundle) is started with plain node by tools/dev/test/bundles.e2e.spec.ts.

FROM node:24.21.0-bookworm-slim AS build
WORKDIR /repo
RUN corepack disable && npm install --global pnpm@12.21.0
COPY . .
RUN pnpm install --frozen-lockfile \
 && pnpm build \
 && pnpm --filter "@broker/calc-service" deploy --prod /bundle

FROM node:24.21.0-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000
WORKDIR /app
COPY --from=build --chown=node:node /bundle /app
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/health/live').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "dist/main.js"]
