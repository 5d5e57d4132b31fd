#ifndef EXAMPLE_LIGHTING_INCLUDED
#define EXAMPLE_LIGHTING_INCLUDED

#include "ExampleCommon.glsl"

struct SurfaceData {
  vec3 position;
  vec3 normal;
  vec3 albedo;
  #ifdef USE_SPECULAR
    float shininess;
  #endif
};

vec3 scene_AmbientColor;
vec3 scene_LightDirection;
vec3 scene_LightColor;

#if LIGHT_COUNT == 2
  vec3 scene_SecondLightDirection;
  vec3 scene_SecondLightColor;
#endif

float lambert(vec3 n, vec3 l) {
  return saturate(dot(n, -l));
}

vec3 shadeLight(SurfaceData surface, vec3 lightDirection, vec3 lightColor
#ifdef USE_SPECULAR
  , vec3 viewDirection
#endif
) {
  vec3 color = surface.albedo * EXAMPLE_RECIPROCAL_PI * lambert(surface.normal, lightDirection);
  #ifdef USE_SPECULAR
    vec3 h = normalize(viewDirection - lightDirection);
    float specular = pow(saturate(dot(surface.normal, h)), surface.shininess);
    color += vec3(specular * (surface.shininess + 8.0) / (8.0 * EXAMPLE_PI));
  #endif
  return color * lightColor;
}

#endif
