# The wiki service on the official Deno image. Build: docker build -t knowledge-wiki .
# Run (embedded store): docker run -p 8000:8000 -v wiki-data:/data knowledge-wiki
# Run (PostgreSQL):     docker run -p 8000:8000 -e DATABASE_URL=postgres://… knowledge-wiki

# 1. Dependencies alone, so that a change of source code reuses this layer. deno.lock holds the
#    server's packages only (the test tools are in deno.dev.lock, which the image never reads).
FROM denoland/deno:2.9.6 AS deps
WORKDIR /app
COPY deno.json deno.lock ./
RUN deno install --frozen --lock=deno.lock

# 2. The source, type-checked and cached against those dependencies (a type error fails the build).
FROM deps AS build
COPY main.ts ./
COPY src ./src
COPY migrations ./migrations
COPY scripts ./scripts
COPY docs/guide ./docs/guide
RUN deno cache --frozen --lock=deno.lock --check main.ts scripts/import.ts scripts/admin.ts scripts/reindex.ts \
    src/spaces/render_worker.ts

# 3. What runs: the app and the Deno cache, as the image's non-root user.
FROM denoland/deno:2.9.6
WORKDIR /app
COPY --from=build /deno-dir /deno-dir
COPY --from=build /app /app
RUN mkdir -p /data && chown -R deno:deno /data /deno-dir
ENV PORT=8000 DATA_DIR=/data
VOLUME /data
EXPOSE 8000
USER deno
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["deno", "eval", "const r = await fetch('http://127.0.0.1:' + (Deno.env.get('PORT') ?? '8000') + '/healthz'); if (!r.ok) Deno.exit(1);"]
CMD ["run", "--frozen", "--lock=deno.lock", "--allow-net", "--allow-env", "--allow-read", "--allow-write", "--allow-sys", "main.ts"]
