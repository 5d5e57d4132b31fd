#ifndef EXAMPLE_COMMON_INCLUDED
#define EXAMPLE_COMMON_INCLUDED

#define EXAMPLE_PI 3.14159265359
#define EXAMPLE_RECIPROCAL_PI 0.31830988618
#define saturate(x) clamp((x), 0.0, 1.0)
#define pow2(x) ((x) * (x))

mat4 renderer_MVPMat;
mat4 renderer_ModelMat;
mat4 renderer_NormalMat;
vec3 camera_Position;

vec3 gammaToLinear(vec3 color) {
  return pow(color, vec3(2.2));
}

vec4 linearToGamma(vec4 color) {
  return vec4(pow(color.rgb, vec3(1.0 / 2.2)), color.a);
}

#endif
