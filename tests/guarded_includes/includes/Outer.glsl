#ifndef OUTER_INCLUDED
#define OUTER_INCLUDED
#include "Helper.glsl"
float outer(float x) { return helper(x) + 1.0; }
#endif
