// The twelve contention patterns of docs/patterns.md, one SPIR-V module each:
// the build compiles this file once per pattern with -DPAT_<NAME>, so the
// key hash, the selection rule and the shared-memory pad are written once
// and every pattern sees exactly the same address stream as the simulator.
#version 450
#if defined(PAT_COUNTER_AGGREGATED)
#extension GL_KHR_shader_subgroup_ballot : require
#endif
#if defined(TRACE)
// vkbench --trace: a second module of cas-append and bitmask that also
// records where and when each unit ran (NVIDIA's SM builtins, the device's
// real-time clock and the SM's own cycle counter).
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_NV_shader_sm_builtins : require
#extension GL_EXT_shader_realtime_clock : require
#extension GL_ARB_shader_clock : require
#endif

// PROBES: vkbench's probe options (--select-unit, --tail, --spin,
// --cas-first, --count-cas) live in a second module per pattern, compiled
// with -DPROBES, and the contract's module holds none of their code: the
// probes' dead branches (a barrier among them) slowed the contract's kernel
// by up to 47% at 288 to 1,024 threads
// (validate/data/probes/h100-wg-sizes-*.csv).
#if defined(TRACE) && !defined(PROBES)
#define PROBES
#endif

// Workgroup size and shared-array length are specialization constants so a
// sweep over --wg and --smem-per-wg needs no recompilation.
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint SMEM_WORDS = 1u;

layout(push_constant) uniform Params {
    uint n;          // threads that do work; the rest only reach barriers
    uint sel_thr;    // round(S * 1e6): selected iff key % 1e6 < sel_thr
    uint bins;       // K, a run-time value as the contract asks
    uint hot_thr;    // round(F * 1e6): histogram's hot-bin rule
    uint addresses;  // P for distinct-lines
    uint touch;      // always 0 at run time; the compiler cannot know that
    uint count_cas;  // 1: each CAS-loop thread stores its CAS count: o[i] (sub-word histograms), o[n + i] (cas-append); bit 2: cas-append also its first read, o[2n + i]
    uint sel_unit;   // 0 thread (the contract), 1 warp, 2 workgroup, 3 lane 0 of a warp
    uint tail;       // 0 none (the contract), 1 a workgroup barrier before exit, 2 a buffer fence after a write
    uint spin;       // 0 (the contract); else bitmask's and store's silent threads spin this long before exit
    uint cas_first;  // 0 (the contract): cas-append reads the word with an atomic first; 1 it guesses 0 and lets the first CAS read
    uint flush_all;  // 0 (the contract): histogram-shared flushes non-zero bins; 1 every bin, zero ones too
} pc;

layout(std430, set = 0, binding = 0) buffer Target { uint t[]; };
layout(std430, set = 0, binding = 1) buffer Out { uint o[]; };

shared uint smem[SMEM_WORDS];

uint lowbias32(uint x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

bool selected(uint key) { return key % 1000000u < pc.sel_thr; }

// The selection rule for thread i. Besides the contract's per-thread draw,
// vkbench --select-unit can make one draw decide a whole warp (32
// consecutive invocations), a whole workgroup, or lane 0 of a warp alone:
// probes of the selectivity hump (validate/README.md). Mirrors
// vkb_selected_at in vkb_hash.h.
bool selected_at(uint i)
{
#if defined(PROBES)
    if (pc.sel_unit == 1u)
        return selected(lowbias32(i >> 5));
    if (pc.sel_unit == 2u)
        return selected(lowbias32(gl_WorkGroupID.x));
    if (pc.sel_unit == 3u)
        return (i & 31u) == 0u && selected(lowbias32(i >> 5));
#endif
    return selected(lowbias32(i));
}

// Keeps the whole shared array alive (so --smem-per-wg really limits
// occupancy) without ever running: pc.touch is 0, but only the host knows.
void touch_smem(uint i)
{
    if (pc.touch != 0u) {
        smem[i % SMEM_WORDS] = i;
        memoryBarrierShared();
        atomicAdd(t[0], smem[(i + pc.touch) % SMEM_WORDS]);
    }
}

// vkbench --spin N: a thread that sends nothing runs N dependent
// multiply-adds before it exits, so silent warps leave after their
// siblings' writes (a probe of the selectivity hump). The result is kept
// alive by a store no run takes (pc.touch is always 0).
void spin_silent(uint i)
{
#if defined(PROBES)
    uint acc = i;
    for (uint k = 0u; k < pc.spin; k++)
        acc = acc * 1664525u + 1013904223u;
    if (pc.touch != 0u && acc == 0u)
        o[0] = acc;
#endif
}

#if defined(TRACE)
// Unit u's record, behind cas-append's keys, counts and first reads:
// o[3n + 7u ..] = SM, warp slot on it, start and end on the device clock
// (ns) and on the SM's (cycles), low 32 bits each, and cas-append's slot.
void trace_rec(uint u, uvec2 start, uint slot)
{
    uint b = 3u * pc.n + 7u * u;
    o[b] = gl_SMIDNV;
    o[b + 1u] = gl_WarpIDNV;
    o[b + 2u] = start.x;
    o[b + 3u] = clockRealtime2x32EXT().x;
    o[b + 4u] = start.y;
    o[b + 5u] = clock2x32ARB().x;
    o[b + 6u] = slot;
}
#endif

#if defined(PAT_HISTOGRAM_U8_CAS) || defined(PAT_HISTOGRAM_U16_CAS)
// Sub-word bin increment emulated with a 32-bit compare-and-swap loop; the
// first read is an atomic so it sees the value in L2, as the contract says.
// Returns the number of compare-and-swaps it took (1 without a conflict).
uint cas_bump(uint w, uint shift, uint mask)
{
    uint old = atomicAdd(t[w], 0u);
    uint tries = 0u;
    for (;;) {
        uint field = ((old >> shift) + 1u) & mask;
        uint nv = (old & ~(mask << shift)) | (field << shift);
        uint r = atomicCompSwap(t[w], old, nv);
        tries++;
        if (r == old)
            break;
        old = r;
    }
    return tries;
}

// vkbench --count-cas: the retry count of every thread, so the simulator's
// cas_attempts can be checked against the GPU's own (a plain store per
// thread after the loop, off the contended words).
void record_tries(uint i, uint tries)
{
#if defined(PROBES)
    if (pc.count_cas != 0u)
        o[i] = tries;
#endif
}
#endif

void main()
{
    uint i = gl_GlobalInvocationID.x;
    uint lid = gl_LocalInvocationID.x;
    uint wg = gl_WorkGroupSize.x;
    bool live = i < pc.n;
    uint key = lowbias32(i);
    touch_smem(i);
#if defined(TRACE)
    uvec2 t_start = uvec2(clockRealtime2x32EXT().x, clock2x32ARB().x);
#endif

#if defined(PAT_STORE)
    if (live && selected_at(i)) {
        o[i] = key;
#if defined(PROBES)
        if (pc.tail == 2u)
            memoryBarrierBuffer();
#endif
    } else
        spin_silent(i);

#elif defined(PAT_COUNTER)
    if (live && selected_at(i))
        atomicAdd(t[0], 1u);

#elif defined(PAT_COUNTER_AGGREGATED)
    // Ballot with every lane active, then elect among the selected lanes.
    bool sel = live && selected_at(i);
    uvec4 ballot = subgroupBallot(sel);
    if (sel) {
        if (subgroupElect())
            atomicAdd(t[0], subgroupBallotBitCount(ballot));
    }

#elif defined(PAT_COMPACTION)
    if (live && selected_at(i)) {
        uint slot = atomicAdd(t[0], 1u);
        o[slot] = key;
    }

#elif defined(PAT_HISTOGRAM)
    if (live) {
        uint b = (key % 1000000u < pc.hot_thr) ? 0u : (key >> 3) % pc.bins;
        atomicAdd(t[b], 1u);
    }

#elif defined(PAT_HISTOGRAM_SHARED)
    for (uint j = lid; j < pc.bins; j += wg)
        smem[j] = 0u;
    barrier();
    if (live)
        atomicAdd(smem[(key >> 3) % pc.bins], 1u);
    barrier();
    for (uint j = lid; j < pc.bins; j += wg) {
        uint c = smem[j];
#if defined(PROBES)
        if (c != 0u || pc.flush_all != 0u)
#else
        if (c != 0u)
#endif
            atomicAdd(t[j], c);
    }

#elif defined(PAT_HISTOGRAM_U8_CAS)
    if (live) {
        uint b = (key >> 3) % pc.bins;
        record_tries(i, cas_bump(b >> 2, (b & 3u) * 8u, 0xffu));
    }

#elif defined(PAT_HISTOGRAM_U16_CAS)
    if (live) {
        uint b = (key >> 3) % pc.bins;
        record_tries(i, cas_bump(b >> 1, (b & 1u) * 16u, 0xffffu));
    }

#elif defined(PAT_CAS_APPEND)
    if (live && selected_at(i)) {
#if defined(PROBES)
        uint old = pc.cas_first == 0u ? atomicAdd(t[0], 0u) : 0u;
#else
        uint old = atomicAdd(t[0], 0u);
#endif
        // vkbench --win-order: how many had won when this thread's read
        // was served (its first CAS's reply, when it guesses)
        uint first_read = old;
        uint tries = 0u;
        for (;;) {
            uint r = atomicCompSwap(t[0], old, old + 1u);
#if defined(PROBES)
            if (tries == 0u && pc.cas_first != 0u)
                first_read = r;
#endif
            tries++;
            if (r == old) {
                o[old] = key;
#if defined(TRACE)
                trace_rec(i, t_start, old);
#endif
                break;
            }
            old = r;
        }
#if defined(PROBES)
        // vkbench --count-cas: behind the keys, off the contended word
        if (pc.count_cas != 0u)
            o[pc.n + i] = tries;
        if ((pc.count_cas & 2u) != 0u)
            o[2u * pc.n + i] = first_read;
#endif
    }

#elif defined(PAT_BITMASK)
    if (live && selected_at(i)) {
        atomicOr(t[i >> 5], 1u << (i & 31u));
#if defined(PROBES)
        if (pc.tail == 2u)
            memoryBarrierBuffer();
#endif
#if defined(TRACE)
        // one record a sending warp, by one of its sending lanes; silent
        // warps write nothing, as in the contract's kernel
        if (subgroupElect())
            trace_rec(i >> 5, t_start, 0u);
#endif
    } else
        spin_silent(i);

#elif defined(PAT_REDUCE)
    // Shared memory starts undefined, so one lane zeroes the word first.
    if (lid == 0u)
        smem[0] = 0u;
    barrier();
    if (live)
        atomicAdd(smem[0], key & 255u);
    barrier();
    if (lid == 0u)
        atomicAdd(t[0], smem[0]);

#elif defined(PAT_DISTINCT_LINES)
    if (live)
        atomicAdd(t[(i % pc.addresses) * 32u], 1u);

#else
#error "compile with one -DPAT_<NAME>"
#endif

    // vkbench --tail barrier: no warp leaves before every warp of its
    // workgroup got here (a probe of the selectivity hump; the push
    // constant is the same for every invocation, so the barrier is in
    // uniform control flow).
#if defined(PROBES)
    if (pc.tail == 1u)
        barrier();
#endif
}
