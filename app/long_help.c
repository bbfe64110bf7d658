/* long_help.c - the --help texts too long to sit beside their command's
 * flags: `atomsim plan`'s (how every parameter is drawn) and `atomsim check
 * --against sim`'s (how its points are drawn and scored).  Kept out of the
 * command files so that those stay parse-and-print; the numbers in them
 * come from the modules that use them, so the text cannot drift. */
#include "long_help.h"

#include "../validate/model_vs_sim.h"
#include "../validate/plan_draw.h"

void help_plan(FILE *f)
{
    fprintf(f,
        "usage: atomsim plan --random --seed S --rows N [--patterns LIST] [range flags]\n"
        "                    [--format plan|csv] [--output FILE]\n"
        "draws N configurations at random and writes them as a vkbench plan or as CSV.  The same\n"
        "seed and flags give the same bytes (GSL's mt19937 seeded with S, on the same build).  Every\n"
        "row is a complete configuration: a parameter its pattern ignores gets the contract's\n"
        "default (selectivity 1, bins 256, hot 0, addresses 1).\n"
        "\n"
        "  --random              the only mode so far; required\n"
        "  --seed S              an integer in [1, 4294967295] (mt19937 keeps 32 bits and takes 0\n"
        "                        as 4357, so other seeds would repeat another's output); required\n"
        "  --rows N              configurations to write, in [1, 1000000]; required\n"
        "  --patterns LIST       comma list of pattern names, or all (default all).  Rows are dealt\n"
        "                        in rounds, every listed pattern once a round in a fresh random\n"
        "                        order, so each pattern gets N/P rows or one more\n"
        "  --format plan|csv     plan (default): two comment lines (the command, what the file is),\n"
        "                        then one vkbench line a configuration: --pattern --n --wg\n"
        "                        --selectivity --bins --hot --addresses --smem-per-wg.  csv: the\n"
        "                        header pattern,n,wg,selectivity,bins,hot,addresses,smem_per_wg\n"
        "                        and the same rows in the same order (atomsim dispatch --batch)\n"
        "  --output FILE         write to FILE instead of stdout\n"
        "\n");
    fprintf(f,
        "Ranges are LO..HI, both ends included.  Integers are decimal, 2^E or 1eE (no octal or\n"
        "hex); fractions are decimal.  A log-uniform integer is floor(e^U), U uniform on\n"
        "[ln LO, ln(HI+1)].  The domains are what both atomsim and vkbench accept.\n"
        "  --n-range LO..HI      default 2^10..2^24, domain [1, 2^28].  Each pattern's rows\n"
        "                        alternate, from a random start, between exact powers of two\n"
        "                        (log-uniform: a uniform exponent) and other integers (log-uniform,\n"
        "                        drawn again when it lands on a power of two; not rounded to a\n"
        "                        multiple of 32, so the last workgroup is usually partial).  A\n"
        "                        range that holds only one kind gives only that kind\n"
        "  --wg-range LO..HI     default 32..1024, domain [1, 1024]: multiples of 32 in range (96,\n"
        "                        192, 640 occur), log-uniform over the multiple; the range must\n"
        "                        hold one\n"
        "  --smem-range LO..HI   default 0..49152, domain [0, 2^20]: shared memory a workgroup\n"
        "                        allocates, in bytes.  30%% exactly LO (0: nothing beyond the\n"
        "                        pattern's own need), 70%% a multiple of 1024 in range, uniform\n"
        "                        (the range must hold one).  The value written is max(draw, the\n"
        "                        pattern's own need: histogram-shared 4*bins, reduce 4), which\n"
        "                        the bins limit below keeps <= HI.  The device's own limit (48 KiB\n"
        "                        under Vulkan on an H100) is vkbench's to check\n"
        "  --selectivity-range LO..HI\n"
        "                        default 0..1, multiples of 0.000001 (the contract selects on\n"
        "                        round(S*1e6)): 10%% exactly LO, 20%% exactly HI, 70%% log-uniform\n"
        "                        from max(LO, HI/1000) to HI rounded to 6 decimals.  Read by store,\n"
        "                        counter, counter-aggregated, compaction, cas-append, bitmask\n"
        "  --bins-range LO..HI   default 1..2^22, domain [1, 2^24]: histogram and\n"
        "                        histogram-shared, log-uniform.  histogram-shared's HI is lowered\n"
        "                        to the smem HI / 4, since its bins live in shared memory\n"
        "  --cas-bins-range LO..HI\n"
        "                        default 1..2^16, domain [1, 2^24]: the same for\n"
        "                        histogram-u8-cas and histogram-u16-cas\n"
        "  --max-cas-contenders N  default 131072 (2^17): a compare-and-swap row whose hottest word\n"
        "                        more threads race on (cas-append n x S, u8 n/(K/4), u16 n/(K/2)) is\n"
        "                        drawn again: past it one GPU dispatch can outlast the harness's timeout\n"
        "  --hot-range LO..HI    default 0..1, multiples of 0.001: histogram only.  60%% exactly LO,\n"
        "                        40%% uniform over the range in steps of 0.001\n"
        "  --addresses-range LO..HI\n"
        "                        default 1..2^22, domain [1, 2^22]: distinct-lines, log-uniform\n"
        "\n"
        "\n"
        "A configuration drawn before is drawn again, up to %d times, since vkbench runs a\n"
        "repeated configuration once; only ranges too narrow for N rows leave repeats (a note on\n"
        "stderr counts them).  Exit status: 0; 1 the output could not be written (a file is left\n"
        "incomplete); 2 bad usage, with one line on stderr.\n",
        PLN_MAX_REDRAWS);
}

void help_check_sim(FILE *f)
{
    fprintf(f,
            "usage: atomsim check --against sim --config FILE [-p section.key=value ...] [--seed S]\n"
            "                     [--points N] [-j J] [--max-events E] [--only PATTERNS]\n"
            "                     [--format text|csv] [--rows-out FILE]\n"
            "holds the analytical model to the simulator on N random configurations (default %d)\n"
            "drawn as `atomsim plan --random --seed S --rows N --n-range %s --patterns PATTERNS`\n"
            "draws them: every pattern (or the comma list PATTERNS) in turn, wg 32..1024 in steps of\n"
            "32, shared memory 0..48 KiB, each pattern's own axes, CAS rows past the plan's contention\n"
            "guard drawn again.  Both engines run every point, the simulator on J processes (default:\n"
            "online CPUs; the output is the same for any J) under an event budget of E (default %g,\n"
            "replacing sim.max_events); a row that needs more is counted as unfinished, not scored.\n"
            "Per pattern and over all: rows, unfinished rows, the median and 90th percentile of\n"
            "|model/sim - 1|, and the goals: median <= %g%%, p90 <= %g%%.  --rows-out writes every\n"
            "point with both times.  Seed S in [1, 4294967295], default %d.\n"
            "Exit status: 0 every pattern meets the goals, 1 one misses them (a pattern with no\n"
            "scored row does too) or a run failed, 2 bad usage.\n",
            MVS_DEFAULT_POINTS, MVS_N_RANGE, MVS_DEFAULT_MAX_EVENTS, 100 * MVS_GOAL_MEDIAN, 100 * MVS_GOAL_P90,
            MVS_DEFAULT_SEED);
}
