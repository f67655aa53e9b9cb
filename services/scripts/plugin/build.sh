#!/usr/bin/env bash
# Builds the Javy plugin (QuickJS for wasm32-wasip1) into turnier_plugin.wasm next to this script,
# plus turnier_plugin.wasm.sha256. Both are committed: the scripts service embeds the .wasm with
# include_bytes!, so building the service needs no wasm toolchain.
#
#   build.sh           rebuild and overwrite the committed artifact
#   build.sh --check   rebuild in a fresh temporary target dir; fail if the bytes differ
#
# The build is reproducible: the same sources, lock file and toolchain give the same bytes
# whatever the checkout path, target dir or CARGO_HOME (paths are remapped, no debug info, one
# codegen unit). Needs Debian's clang-16 lld-16 llvm-16 wasi-libc libclang-rt-16-dev-wasm32 and
# `rustup target add wasm32-wasip1`; nothing is downloaded but crates.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
artifact="$here/turnier_plugin.wasm"
check=false
case "${1:-}" in
    --check) check=true ;;
    "") ;;
    *) echo "usage: $0 [--check]" >&2; exit 2 ;;
esac

fail() { echo "plugin/build.sh: $*" >&2; exit 1; }

packages="clang-16 lld-16 llvm-16 wasi-libc libclang-rt-16-dev-wasm32"
for tool in clang-16 llvm-ar-16; do
    command -v "$tool" >/dev/null || fail "$tool not found; install: apt-get install $packages"
done
[[ -d /usr/include/wasm32-wasi && -d /usr/lib/wasm32-wasi ]] \
    || fail "wasi-libc not found; install: apt-get install $packages"
[[ -e /usr/lib/llvm-16/lib/clang/16/lib/wasi/libclang_rt.builtins-wasm32.a ]] \
    || fail "the wasm32 compiler runtime is missing; install: apt-get install $packages"
rustup target list --installed | grep -qx wasm32-wasip1 \
    || fail "the Rust target is missing; run: rustup target add wasm32-wasip1"

if $check; then
    target="$(mktemp -d)"
    trap 'rm -rf "$target"' EXIT
else
    target="${CARGO_TARGET_DIR:-$here/../../../target}/turnier-plugin"
    mkdir -p "$target"
    target="$(cd "$target" && pwd)"
fi

# Debian's clang looks for the headers and libraries of the triple it is given
# (wasm32-wasip1) while wasi-libc installs them as wasm32-wasi: a sysroot of two links fixes that.
sysroot="$target/wasi-sysroot"
mkdir -p "$sysroot/lib"
ln -sfn /usr/include/wasm32-wasi "$sysroot/include"
ln -sfn /usr/lib/wasm32-wasi "$sysroot/lib/wasm32-wasip1"

cargo_home="${CARGO_HOME:-$HOME/.cargo}"
# Paths that could reach the binary (panic locations, C __FILE__) are remapped to fixed names.
remap="--remap-path-prefix=$cargo_home=/cargo --remap-path-prefix=$here=/plugin"
remap="$remap --remap-path-prefix=$target=/target"

export RQUICKJS_SYS_NO_WASI_SDK=1 # otherwise rquickjs-sys downloads a WASI SDK
export CC_wasm32_wasip1=clang-16
export AR_wasm32_wasip1=llvm-ar-16
export LIBCLANG_PATH=/usr/lib/llvm-16/lib
export CFLAGS_wasm32_wasip1="--sysroot=$sysroot -ffile-prefix-map=$target=/target -ffile-prefix-map=$cargo_home=/cargo"
export BINDGEN_EXTRA_CLANG_ARGS_wasm32_wasip1="--sysroot=$sysroot"
export CARGO_TARGET_WASM32_WASIP1_RUSTFLAGS="$remap"
export CARGO_INCREMENTAL=0
export SOURCE_DATE_EPOCH=0
unset RUSTFLAGS CARGO_ENCODED_RUSTFLAGS CARGO_BUILD_RUSTFLAGS

cargo build --quiet --release --locked --target wasm32-wasip1 \
    --manifest-path "$here/Cargo.toml" --target-dir "$target"
built="$target/wasm32-wasip1/release/turnier_plugin.wasm"

if $check; then
    [[ -f "$artifact" ]] || fail "$artifact is missing; run services/scripts/plugin/build.sh"
    if ! cmp -s "$built" "$artifact"; then
        echo "committed: $(sha256sum <"$artifact" | cut -d' ' -f1)" >&2
        echo "rebuilt:   $(sha256sum <"$built" | cut -d' ' -f1)" >&2
        fail "turnier_plugin.wasm differs from a fresh build; run services/scripts/plugin/build.sh and commit it"
    fi
    (cd "$here" && sha256sum --check --quiet turnier_plugin.wasm.sha256) \
        || fail "turnier_plugin.wasm.sha256 does not match turnier_plugin.wasm"
    echo "plugin: turnier_plugin.wasm matches a fresh build ($(wc -c <"$artifact") bytes)"
else
    install -m 0644 "$built" "$artifact"
    (cd "$here" && sha256sum turnier_plugin.wasm >turnier_plugin.wasm.sha256)
    echo "plugin: wrote $artifact ($(wc -c <"$artifact") bytes)"
fi
