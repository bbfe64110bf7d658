#!/usr/bin/env bash
# json_outputs.sh - every JSON document atomsim writes names the build that
# wrote it ("version", util/version.h), and run, sweep and study
# write one shape (atomsim-runs, docs/cli.md): the same top-level keys and
# the same keys in every run, whether one effective config or several, so
# that a consumer reads all three with one piece of code.
# ATOMSIM may name the binary.
set -u
cd "$(dirname "$0")/.."
A=${ATOMSIM:-build/atomsim}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/lib/checks.sh

if [ ! -x "$A" ]; then
    echo "FAIL $A is not built"
    exit 1
fi

# json NAME COMMAND...: stdout to $tmp/NAME.json
json() {
    local name=$1
    shift
    "$@" >"$tmp/$name.json" 2>"$tmp/err" || bad "$name: $* exited $?: $(head -1 "$tmp/err")"
}

C="--config configs/h100.ini"
json run "$A" run $C --pattern counter --n 2^12 --format json
json sweep-one "$A" sweep $C --pattern counter,histogram --n 2^10 --engine model,sim --no-progress --format json
json sweep-several "$A" sweep $C --config configs/a100.ini --pattern counter --n 2^10 --vary l2.slice_count=40,80 \
    --engine model --no-progress --format json
json sweep-empty-shard "$A" sweep $C --pattern counter --n 2^10 --engine model --shard 1/2 --no-progress --format json
cat >"$tmp/study.ini" <<'EOF'
[study]
version = 1
[grid]
pattern = counter,compaction
n = 2^10,2^12
engine = model
l2.slice_count = 40,80
[outputs]
json = s.json
EOF
"$A" study "$tmp/study.ini" --out-dir "$tmp/study" >/dev/null 2>"$tmp/err" && cp "$tmp/study/s.json" "$tmp/study.json" ||
    bad "study exited: $(head -1 "$tmp/err")"
json export "$A" export $C --only counter
json dispatch "$A" dispatch --table tables/h100.json --pattern counter --n 2^22 --format json
json config "$A" config $C --dump --format json

check "every JSON output parses and names one build's version" python3 - "$tmp" <<'EOF'
import json, sys
seen = {}
for f in ("run", "sweep-one", "sweep-several", "sweep-empty-shard", "study", "export", "dispatch", "config"):
    d = json.load(open("%s/%s.json" % (sys.argv[1], f)))
    v = d.get("version")
    assert isinstance(v, str) and v, (f, v)
    seen[f] = v
assert len(set(seen.values())) == 1, seen
EOF

check "run, sweep (one config, several, an empty shard) and study: one shape" python3 - "$tmp" <<'EOF'
import json, sys
docs = {n: json.load(open("%s/%s.json" % (sys.argv[1], n)))
        for n in ("run", "sweep-one", "sweep-several", "sweep-empty-shard", "study")}
top = {"schema", "schema_version", "version", "runs", "configs"}
run_keys = set(docs["run"]["runs"][0])
config_keys = {"name", "labels", "config_path", "config_hash", "config"}
for name, d in docs.items():
    assert set(d) == top, (name, sorted(d))
    assert d["schema"] == "atomsim-runs" and d["schema_version"] == 2, (name, d["schema"], d["schema_version"])
    for r in d["runs"]:
        assert set(r) == run_keys, (name, sorted(set(r) ^ run_keys))
        assert 0 <= r["config"] < len(d["configs"]), (name, r["config"])
    for c in d["configs"]:
        assert set(c) == config_keys, (name, sorted(c))
        assert len(c["config_hash"]) == 16
        # a config of the document is one some run names
        assert any(r["config"] == d["configs"].index(c) for r in d["runs"]), (name, c["name"])
assert "config" in run_keys and "pattern" in run_keys and "engine" in run_keys and "time_us" in run_keys
assert len(docs["run"]["runs"]) == 1 and len(docs["run"]["configs"]) == 1
assert docs["run"]["configs"][0]["name"] == "h100" and docs["run"]["configs"][0]["labels"] == {}
assert len(docs["sweep-one"]["configs"]) == 1 and len(docs["sweep-one"]["runs"]) == 4
s = docs["sweep-several"]
assert [(c["name"], c["labels"]) for c in s["configs"]] == [
    ("h100", {"l2.slice_count": 40}), ("h100", {"l2.slice_count": 80}),
    ("a100", {"l2.slice_count": 40}), ("a100", {"l2.slice_count": 80})], s["configs"]
assert len({c["config_hash"] for c in s["configs"]}) == 4
assert docs["sweep-empty-shard"]["runs"] == [] and docs["sweep-empty-shard"]["configs"] == []
assert len(docs["study"]["configs"]) == 2 and len(docs["study"]["runs"]) == 8
EOF
finish json_outputs
