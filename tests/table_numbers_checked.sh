#!/usr/bin/env bash
# table_numbers_checked.sh - a cost table is a file anyone can edit, and
# dispatch used to trust it: a pattern listed twice wrote past its axis
# arrays (a crash), an axis listed twice read past a heap buffer (the
# answer `gpu_us: 1.6e-322, decision: gpu`, exit 0).  Every mutation here
# (a repeat, a negative or out-of-range time, density fraction, threshold,
# workgroup size, axis value, count or limit) must be refused by
# `atomsim dispatch` with one line naming it, exit 2, nothing on stdout;
# the unmutated table answers.  ATOMSIM may name the binary.
set -u
cd "$(dirname "$0")/.."
A=${ATOMSIM:-build/atomsim}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/lib/checks.sh
. tests/lib/expect_one_line.sh

"$A" export --config configs/h100.ini --only counter,histogram --residuals validate/data/h100.csv \
    --cpu-residuals validate/truth/routing-3-cpu-h100host-16core.csv --output "$tmp/t.json" 2>"$tmp/err" || cat "$tmp/err"
# NAME <TAB> REGEX <TAB> python statement on d (the table), c (counter), h (histogram)
cat >"$tmp/cases.tsv" <<'CASES'
dup-pattern	counter: is listed twice	d['patterns'].append(json.loads(json.dumps(c)))
dup-axis	counter: an axis is listed twice	c['axes'][3] = json.loads(json.dumps(c['axes'][0]))
gpu-us-negative	counter: cells.gpu_us is not one non-negative number	c['cells']['gpu_us'][5] = -1
cpu-us-negative	counter: host_cells.cpu_us is not one non-negative number	c['host_cells']['cpu_us'][0] = -0.5
fraction-over-1	counter: a density_fraction exceeds 1	c['host_cells']['density_fraction'][0] = 1.5
fraction-negative	counter: host_cells.density_fraction is not one non-negative	c['host_cells']['density_fraction'][0] = -0.1
gpu-us-short	counter: cells.gpu_us is not one non-negative number a cell	c['cells']['gpu_us'].pop()
wg-fraction	counter: wg 32.5 is not a whole number	c['axes'][1]['values'][0] = 32.5
wg-zero	counter: an axis is not increasing \(or a log2 axis not positive\)	c['axes'][1]['values'][0] = 0
wg-huge	counter: wg 1e\+06 is not a whole number in|counter: wg 1000000 is not	c['axes'][1]['values'][-1] = 1000000
n-huge	counter: n .* is not a whole number in \[1, 	c['axes'][0]['values'][-1] = 1e300
selectivity-over-1	counter: selectivity 2 is not a number in \[0, 1\]	c['axes'][3]['values'][-1] = 2
smem-fraction	counter: smem_per_wg 0.5 is not a whole number	c['axes'][2]['values'][0] = 0.5
bins-fraction	histogram: bins 1.5 is not a whole number	h['axes'][3]['values'][0] = 1.5
hot-over-1	histogram: hot 3 is not a number in \[0, 1\]	h['axes'][4]['values'][-1] = 3
axis-33-values	counter: an axis's values are not 1 to 32	c['axes'][3]['values'] = [i / 100 for i in range(33)]
cell-count	counter: cell_count is not	c['cell_count'] += 1
host-cell-count	counter: host_cell_count is not	c['host_cell_count'] = -1
fixed-bins	counter: bins 0 is not a whole number in	c['fixed']['bins'] = 0
fixed-unknown	counter: fixed holds something	c['fixed']['colour'] = 1
uses-cas-number	counter: uses_cas is not true or false	c['uses_cas'] = 1
band-rows-huge	a band of error_bands is out of order	[p for p in d['patterns'] if p['error_bands']][0]['error_bands'][0]['rows'] = 1e12
band-p10-zero	a band of error_bands is out of order	[p for p in d['patterns'] if p['error_bands']][0]['error_bands'][0]['p10'] = 0
band-rows-zero	a band of error_bands is out of order or has no rows	[p for p in d['patterns'] if p['error_bands']][0]['error_bands'][0]['rows'] = 0
cpu-band-rows-zero	a band of cpu_error_bands is out of order or has no rows	c['cpu_error_bands'][0]['rows'] = 0
cpu-band-p90-low	a band of cpu_error_bands is out of order	c['cpu_error_bands'][0]['p90'] = c['cpu_error_bands'][0]['p10'] / 2
cpu-band-not-list	counter: cpu_error_bands is not a list of at most 4	c['cpu_error_bands'] = {}
cpu-band-negative	a band of cpu_error_bands lacks a non-negative number	c['cpu_error_bands'][0]['n_lo'] = -1
threshold-over-1	the dispatch policy is malformed or out of range	d['dispatch']['seed']['density_inhibit'] = 1.5
threshold-order	the dispatch policy is malformed or out of range	d['dispatch']['seed']['density_penalty_start'] = 0.5
threshold-negative	the dispatch policy is malformed or out of range	d['dispatch']['seed']['density_penalty_start'] = -0.1
launch-negative	the dispatch policy is malformed or out of range	d['dispatch']['host_launch_us'] = -1
pcie-zero	the dispatch policy is malformed or out of range	d['dispatch']['pcie_bandwidth_gbps'] = 0
pcie-huge	the dispatch policy is malformed or out of range	d['dispatch']['pcie_bandwidth_gbps'] = 1e300
subgroup-zero	gpu.config.gpu.subgroup_size is missing or out of range	d['gpu']['config']['gpu']['subgroup_size'] = 0
threads-fraction	gpu.config.gpu.max_threads_per_sm is missing or out of range	d['gpu']['config']['gpu']['max_threads_per_sm'] = 2048.5
smem-negative	gpu.config.gpu.smem_per_sm_bytes is missing or out of range	d['gpu']['config']['gpu']['smem_per_sm_bytes'] = -1
version	schema version 1	d['schema_version'] = 1
CASES
python3 - "$tmp" <<'PY'
import json, sys
tmp = sys.argv[1]
base = open(tmp + '/t.json').read()
for line in open(tmp + '/cases.tsv'):
    name, _, stmt = line.rstrip('\n').split('\t')
    d = json.loads(base)
    c = [p for p in d['patterns'] if p['pattern'] == 'counter'][0]
    h = [p for p in d['patterns'] if p['pattern'] == 'histogram'][0]
    exec(stmt)
    json.dump(d, open('%s/%s.json' % (tmp, name), 'w'))
PY
out=$("$A" dispatch --table "$tmp/t.json" --pattern counter 2>&1)
check_eval "the unmutated table answers" "printf '%s' \"\$out\" | grep -q '^decision: '"
while IFS=$'\t' read -r name re _; do
    expect "$name" 2 "^atomsim dispatch: .*($re)" "$A" dispatch --table "$tmp/$name.json" --pattern counter
done <"$tmp/cases.tsv"
finish table_numbers_checked
