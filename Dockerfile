# syntax=docker/dockerfile:1
#
# One image for every Turnier role:
#   docker build -t turnier .
#   docker run --rm -p 8080:8080 -p 50051:50051 turnier            # everything, embedded SQLite
#   docker run --rm turnier serve --only catalog                     # one role (what Kubernetes runs)
#   docker run --rm -e DATABASE_URL=postgres://... turnier migrate
#
# Stages: `chef` (toolchain) -> `planner` (dependency recipe) -> `builder` (deps, then
# our code) -> `runtime` (debian slim + the binary). Dependencies are compiled in a
# layer keyed only by the recipe (Cargo.toml/Cargo.lock contents), so editing Rust
# code rebuilds only the workspace crates.

ARG RUST_VERSION=1.95
ARG DEBIAN_RELEASE=bookworm

# ---------------------------------------------------------------------------
FROM rust:${RUST_VERSION}-${DEBIAN_RELEASE} AS chef

# The scripts service builds a Javy (QuickJS) plugin for wasm32-wasip1, whose C
# parts need clang with a wasm backend, lld, the WASI libc and compiler-rt's wasm
# builtins. Debian 12 ships them as LLVM 16 packages. protoc is NOT installed: the
# proto crate uses the vendored protoc from protoc-bin-vendored.
RUN apt-get update \
    && apt-get install -y --no-install-recommends \
        clang-16 lld-16 wasi-libc libclang-rt-16-dev-wasm32 \
    && rm -rf /var/lib/apt/lists/* \
    && rustup target add wasm32-wasip1
# C compiler for the wasm target when the plugin's build script asks cc-rs for one.
ENV CC_wasm32_wasip1=clang-16

# cargo-chef turns the workspace's manifests into a recipe and builds only the
# dependencies from it (dummy sources, dummy build scripts). Pinned for repeatable builds.
RUN cargo install cargo-chef --locked --version 0.1.78
WORKDIR /build

# ---------------------------------------------------------------------------
FROM chef AS planner
COPY . .
RUN cargo chef prepare --recipe-path recipe.json

# ---------------------------------------------------------------------------
FROM chef AS builder
# Dependencies: this layer is rebuilt only when a manifest or Cargo.lock changes.
COPY --from=planner /build/recipe.json recipe.json
RUN cargo chef cook --release --locked --recipe-path recipe.json --bin turnier
# Our code.
COPY . .
RUN cargo build --release --locked --bin turnier \
    && install -D -m 0755 target/release/turnier /out/turnier

# ---------------------------------------------------------------------------
FROM debian:${DEBIAN_RELEASE}-slim AS runtime

LABEL org.opencontainers.image.title="turnier" \
      org.opencontainers.image.description="Turnier: a multi-game trading-card-game platform (one binary, every role)" \
      org.opencontainers.image.licenses="Apache-2.0"

# CA roots for TLS to PostgreSQL, Redis and the OTLP collector.
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates \
    && rm -rf /var/lib/apt/lists/*

# A fixed non-root uid/gid (10001), so Kubernetes' runAsNonRoot can check it.
RUN groupadd --gid 10001 turnier \
    && useradd --uid 10001 --gid 10001 --no-create-home --home-dir /var/lib/turnier \
        --shell /usr/sbin/nologin turnier \
    && install -d -o 10001 -g 10001 -m 0750 /var/lib/turnier

COPY --from=builder /out/turnier /usr/local/bin/turnier

# The working directory holds the embedded default's state (SQLite, local queue)
# when DATABASE_URL is not set. Kubernetes mounts an emptyDir here, since its root
# filesystem is read-only.
WORKDIR /var/lib/turnier
USER 10001:10001

# In a container, listen on every interface (the binary's own defaults suit a laptop),
# and keep the embedded state in the working directory (mount a volume there to keep it).
ENV TURNIER_HTTP_ADDR=0.0.0.0:8080 \
    TURNIER_GRPC_ADDR=0.0.0.0:50051 \
    TURNIER_METRICS_ADDR=0.0.0.0:9090 \
    TURNIER_STATE_DIR=/var/lib/turnier

# HTTP/JSON gateway, gRPC services, Prometheus metrics.
EXPOSE 8080 50051 9090

ENTRYPOINT ["/usr/local/bin/turnier"]
CMD ["serve"]
