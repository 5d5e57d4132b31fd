#ifndef HELPER_INCLUDED
#define HELPER_INCLUDED
float helper(float x) { return x * 2.0; }
#endif
