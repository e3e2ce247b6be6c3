# The Railyard sandbox as an image: `railyard serve` from the packed packages, state in the /data volume.
#   docker build -t railyard .
#   docker run -p 4100:4100 -v railyard-data:/data -e RAILYARD_SECRET_KEY="$(openssl rand -base64 32)" railyard
# The build stage has the compilers better-sqlite3 falls back to when no prebuilt binary downloads; the image only
# the installed packages (same Debian, so the native module runs there).
FROM node:20-bookworm AS build
WORKDIR /src
COPY . .
RUN npx -y pnpm@10 install --frozen-lockfile \
 && npx -y pnpm@10 build \
 && npx -y pnpm@10 -r --filter "./packages/*" pack --pack-destination /packs
WORKDIR /app
RUN npm init -y >/dev/null \
 && npm install --omit=dev --no-audit --no-fund /packs/railyard-contract-*.tgz /packs/railyard-engine-*.tgz

FROM node:20-bookworm-slim
WORKDIR /app
COPY --from=build /app /app
RUN mkdir -p /data && chown node:node /data
USER node
ENV RAILYARD_DATA=/data
VOLUME /data
EXPOSE 4100
HEALTHCHECK --interval=10s --timeout=3s CMD node -e "fetch('http://127.0.0.1:4100/_sandbox/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
CMD ["node", "/app/node_modules/@railyard/engine/bin/railyard.cjs", "serve", "--host", "0.0.0.0", "--port", "4100"]
