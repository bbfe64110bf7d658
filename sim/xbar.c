/* xbar.c - a request's way from the SM to its slice: the SM's memory
 * port, the crossbar, the link between the L2's halves, and the slice's
 * bounded queue (admission, depth sampling). */
#include "memsys_int.h"

/* The crossbar from SM `sm` for a request on `line` sent at t, arriving
 * at arr unless it crosses between the L2's halves.  Aligned blocks of
 * lines alternate between the halves, and even SMs sit by half 0, odd ones
 * by half 1 (alternating, so that workgroups handed out in order do not
 * line up with blocks of lines).  A request to the other half queues for
 * the link between them, which carries a limited number of requests a
 * cycle each way, and a full queue there (l2.partition_link_queue_requests)
 * holds the sender's port.  H100 (docs/findings.md, section 4): one block is a plateau at 3.8
 * cycles of port time per lane against 3.0, and from 2,048 to 3,072 lines
 * the time falls as the far SMs' share of crossing requests does.
 * Atomics only: stores held to it ran the 2^24 store rows 3-5% slow.
 * Returns the arrival. */
double ms_cross_halves(mem_sys *m, int sm, uint64_t line, double t, double arr, double port)
{
    if (m->part_shift < 0)
        return arr;
    int side = sm & 1;
    if ((int)(line >> m->part_shift & 1) == side)
        return arr;
    double *free_at = &m->link_free[side];
    if (*free_at > arr)
        arr = *free_at;
    *free_at = arr + m->link_cycles;
    double entered = arr - m->link_queue * m->link_cycles; /* a queue slot freed up */
    if (entered > t + m->xbar) {
        double hold = entered - m->xbar + port;
        if (hold > m->port_free[sm])
            m->port_free[sm] = hold;
    }
    return arr;
}

/* Sends a request on `line` from SM `sm` no earlier than t: the memory
 * port (busy `port` cycles for it), the crossbar (and, when `crosses`, the
 * link between the L2's halves) and the slice's bounded queue; a full queue
 * holds the port too when `holds`.  Returns the admission cycle. */
double ms_send_request(mem_sys *m, int sm, double t, double port, uint64_t line, int crosses, slice *sl,
                           double *arrival, int holds)
{
    /* All requests of one instruction leave together; the port then stays
     * busy for lsu cycles per request.  The engine only issues a memory
     * instruction once the port is free (mem_port_free), which keeps each
     * request's arrival close to the event order that resolves it. */
    double base = m->port_free[sm] > t ? m->port_free[sm] : t;
    m->port_free[sm] = base + port;
    double arr = crosses ? ms_cross_halves(m, sm, line, t, t + m->xbar, port) : t + m->xbar;
    double slot_free = sl->ring[sl->pos]; /* departure of the request Q places back */
    double adm = arr > slot_free ? arr : slot_free;
    if (adm > arr && holds) {
        /* a full queue holds the request in the port: later sends wait */
        double hold = adm - m->xbar + port;
        if (hold > m->port_free[sm])
            m->port_free[sm] = hold;
    }
    /* depth seen on arrival: queued requests not yet departed.  Departures
     * are near-monotone in arrival order, so a binary search over the ring
     * finds the oldest one still queued. */
    int lo = 0, hi = m->qdepth; /* ring[pos-k] > adm holds for k <= lo */
    int newest = sl->pos ? sl->pos - 1 : m->qdepth - 1;
    if (sl->ring[newest] <= adm || (sl->requests & 3))
        hi = 0; /* drained, or not a sampled request: the maximum is sampled 1 in 4 */
    while (lo < hi) {
        int k = (lo + hi + 1) / 2;
        int i = sl->pos - k;
        if (i < 0)
            i += m->qdepth;
        if (sl->ring[i] > adm)
            lo = k;
        else
            hi = k - 1;
    }
    if (lo > sl->depth_max)
        sl->depth_max = lo;
    *arrival = arr;
    return adm;
}

