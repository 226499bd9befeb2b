# Sourced by .ci/run: puts a Node in dsh-slack's range first on PATH.
#
# The range is package.json's `engines` (src/config/node-range.ts), the
# harness's own: ^22.19.0 || >=24. The machine's Node is used when it is in
# range; otherwise the registry package node-linux-<arch> at CI_NODE_VERSION
# is fetched with npm (`npm pack`: no install scripts run) and kept per
# machine under ~/.cache/dsh-slack/, so later runs reuse it. That package
# holds Node alone: the machine's npm runs on it (npm is JavaScript).

# The Node fetched when the machine's is out of range (the harness builds with this one too).
CI_NODE_VERSION="${CI_NODE_VERSION:-22.23.5}"
CI_NODE_RANGE='^22.19.0 || >=24'

# node_in_range v22.19.0 → true; the same rule as isSupportedNode() in src/config/node-range.ts.
node_in_range() {
  local version="${1#v}" major minor
  IFS=. read -r major minor _ <<<"$version"
  [[ "$major" =~ ^[0-9]+$ && "$minor" =~ ^[0-9]+$ ]] || return 1
  (( major >= 24 || (major == 22 && minor >= 19) ))
}

# Fetches node-linux-<arch>@CI_NODE_VERSION into the cache unless it is there; prints its folder.
fetch_node() {
  local arch cache home
  case "$(uname -m)" in
    x86_64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) echo "ci: no node-linux package for $(uname -m); install Node ${CI_NODE_RANGE} yourself" >&2; return 1 ;;
  esac
  cache="${DSH_SLACK_CACHE:-${HOME}/.cache/dsh-slack}"
  home="${cache}/node-linux-${arch}-${CI_NODE_VERSION}"
  mkdir -p "$cache"
  # One fetch per machine at a time: a second run waits, then finds it there.
  (
    flock 9
    [[ -x "${home}/bin/node" ]] && exit 0
    if ! command -v npm >/dev/null 2>&1; then
      echo "ci: Node $(node --version 2>/dev/null || echo '(none)') is outside ${CI_NODE_RANGE} and there is no npm to fetch node-linux-${arch}@${CI_NODE_VERSION} with" >&2
      exit 1
    fi
    scratch="$(mktemp -d "${cache}/.fetch-XXXXXX")"
    trap 'rm -rf "$scratch"' EXIT
    echo "ci: fetching node-linux-${arch}@${CI_NODE_VERSION} into ${home}" >&2
    if ! (cd "$scratch" && npm pack --silent "node-linux-${arch}@${CI_NODE_VERSION}" >/dev/null) \
      || ! tar -xzf "$scratch"/node-linux-*.tgz -C "$scratch" \
      || ! "${scratch}/package/bin/node" --version >/dev/null; then
      echo "ci: could not fetch node-linux-${arch}@${CI_NODE_VERSION} from the registry" >&2
      exit 1
    fi
    rm -rf "$home"
    mv "${scratch}/package" "$home"
  ) 9>"${cache}/.node.lock" || return 1
  echo "$home"
}

# Leaves a Node in range first on PATH for everything after it (npm ci, build, the suite, the stand-in).
use_supported_node() {
  local current="" home
  command -v node >/dev/null 2>&1 && current="$(node --version)"
  if [[ -n "$current" ]] && node_in_range "$current"; then
    echo "ci: using the machine's Node ${current} (in ${CI_NODE_RANGE})"
    return 0
  fi
  echo "ci: the machine's Node ${current:-(none)} is outside ${CI_NODE_RANGE}"
  home="$(fetch_node)" || return 1
  export PATH="${home}/bin:${PATH}"
  hash -r
  if ! node_in_range "$(node --version)"; then
    echo "ci: ${home}/bin/node is $(node --version), outside ${CI_NODE_RANGE}" >&2
    return 1
  fi
  echo "ci: using Node $(node --version) from ${home}"
}
