/* fuzz_cpu_config.c - a CPU tier config as `export --cpu FILE` reads it
 * (model/cpu_config.c: cpu_load over the defaults), then every value
 * formatted back and the config's hash, as the export writes them. */
#include "../../model/cpu_config.h"
#include "fz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    fz_quiet();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static cpu_config c;
    char err[CFG_ERR_MAX], buf[256];
    const char *path = fz_file(data, size, ".ini");
    cpu_defaults(&c);
    if (cpu_load(&c, path, err))
        return 0;
    size_t n;
    const cpu_option *o = cpu_options(&n);
    for (size_t i = 0; i < n; i++)
        cpu_format(&c, &o[i], buf, sizeof buf);
    (void)cpu_hash(&c);
    return 0;
}
