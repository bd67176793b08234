# Parapet service image (docs/deployment.md): the compiled service on production dependencies only,
# as a non-root user, data in /data. Build: docker build -t parapet .
# Node 24, the current LTS (Node 20 reached its end of life in April 2026; docs/operations.md#node-versions).
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
# cld (language detection) compiles a native addon when installed; the slim image has no compiler.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
# onnxruntime-node ships its CPU binaries; without this its postinstall downloads GPU binaries from
# NuGet. package.json's allowScripts says the same to npm 11.16 and later; the variable also covers an
# image whose npm is older (NODE_IMAGE can be overridden).
ENV ONNXRUNTIME_NODE_INSTALL=skip
WORKDIR /app
COPY package.json package-lock.json ./
# Production dependencies only: the compiler (esbuild) is one, so these same node_modules build the
# service and run it.
RUN npm ci --omit=dev --no-audit --no-fund
COPY tsconfig.json ./
COPY scripts/build.mjs scripts/
COPY src src
COPY gen gen
# The browser console (docs/console.md): bundled into dist/console by the same build.
COPY console console
RUN npm run build

FROM ${NODE_IMAGE}
ENV NODE_ENV=production
ENV PORT=8080
ENV PARAPET_DATA_DIR=/data
# dev_info.git_revision: there is no .git directory in the image (docker build --build-arg GIT_REVISION=$(git rev-parse HEAD)).
ARG GIT_REVISION=
ENV PARAPET_GIT_REVISION=${GIT_REVISION}
WORKDIR /app
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/dist dist
# Read at run time from the project root (src/paths.ts): the models, the lexicons, package.json and
# the OpenAPI document served at /openapi.json.
COPY package.json ./
COPY models models
COPY src/screening/detectors/lexicons src/screening/detectors/lexicons
COPY gen/openapi.json gen/openapi.json
# A fresh named volume takes the ownership of the directory it is mounted on.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 8080
# Slim images have no curl; Node's fetch does. /readyz: storage reachable and not shutting down.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "--enable-source-maps", "dist/src/main.js"]
