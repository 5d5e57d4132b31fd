#ifndef THREE_COMMON_INCLUDED
#define THREE_COMMON_INCLUDED

float commonScale() {
  return 2.0;
}

#endif
