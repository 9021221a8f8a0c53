# Sourced by the match scripts after they set DIR: `build_rev REV
# [PARAMS_REV]` prints the path of a release binary of git revision REV,
# built once and kept under $DIR. With PARAMS_REV, the build takes
# src/eval/params.rs (the classical evaluation's weights) from that revision
# instead: the same search with another evaluation. With FEATURES set (e.g.
# FEATURES=tune), the build has those cargo features and its name ends in
# -FEATURES.
mkdir -p "${DIR:?set DIR before sourcing build_rev.sh}"

build_rev() {
    local rev params bin src
    rev=$(git rev-parse --short "$1")
    params=${2:+$(git rev-parse --short "$2")}
    bin="$DIR/chariot-$rev${params:+-params-$params}${FEATURES:+-$FEATURES}"
    if [ ! -x "$bin" ]; then
        src="$bin.src"
        rm -rf "$src"
        git worktree prune
        git worktree add --detach "$src" "$rev" >/dev/null
        if [ -n "$params" ]; then
            git show "$params:src/eval/params.rs" >"$src/src/eval/params.rs"
        fi
        cargo build --release --manifest-path "$src/Cargo.toml" --target-dir "$DIR/target-rev" \
            ${FEATURES:+--features "$FEATURES"} >&2
        cp "$DIR/target-rev/release/chariot" "$bin"
        git worktree remove --force "$src"
    fi
    echo "$bin"
}
