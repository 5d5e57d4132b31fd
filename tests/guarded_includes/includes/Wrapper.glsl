#include "Helper.glsl"
