// Fixed work for the clock guard (validate/vkbench/vkb_clock.c): a chain
// of dependent multiply-adds whose duration, in timestamp nanoseconds,
// falls as the SM clock rises. One workgroup is the probe; many at once
// are the heater that brings a clocked-down GPU back up.
#version 450
layout(local_size_x = 64) in;

layout(push_constant) uniform Params {
    uint iters;
    uint touch; // always 0 at run time: keeps the loop without a store
} pc;

layout(std430, set = 0, binding = 0) buffer Sink { uint sink[]; };

void main()
{
    uint x = gl_GlobalInvocationID.x;
    for (uint k = 0u; k < pc.iters; k++)
        x = x * 1664525u + 1013904223u;
    if (pc.touch != 0u)
        sink[0] = x;
}
