// vertex
in vec4 POSITION;
in vec2 TEXCOORD_0;

out vec2 v_uv;
out vec3 v_position;

uniform mat4 renderer_MVPMat;
uniform mat4 renderer_MVMat;

#define SCENE_SHADOW_TYPE 3

#if defined(SCENE_SHADOW_TYPE) && defined(RENDERER_IS_RECEIVE_SHADOWS)
#define SCENE_IS_CALCULATE_SHADOWS
#endif

#define xxx

#ifdef xxx
uniform mediump sampler2DShadow scene_ShadowMap;

#define SAMPLE_TEXTURE2D_SHADOW(textureName, coord3) textureLod(textureName, coord3 , 0.0)
#define TEXTURE2D_SHADOW_PARAM(shadowMap) mediump sampler2DShadow shadowMap
#endif

float sampleShadowMapFiltered4(TEXTURE2D_SHADOW_PARAM(shadowMap), vec3 shadowCoord, vec4 shadowMapSize) {
    float attenuation;
    vec4 attenuation4;
    vec2 offset = shadowMapSize.xy / 2.0;
    vec3 shadowCoord0 = shadowCoord + vec3(-offset, 0.0);
    vec3 shadowCoord1 = shadowCoord + vec3(offset.x, -offset.y, 0.0);
    vec3 shadowCoord2 = shadowCoord + vec3(-offset.x, offset.y, 0.0);
    vec3 shadowCoord3 = shadowCoord + vec3(offset, 0.0);
    attenuation4.x = SAMPLE_TEXTURE2D_SHADOW(shadowMap, shadowCoord0);
    attenuation4.y = SAMPLE_TEXTURE2D_SHADOW(shadowMap, shadowCoord1);
    attenuation4.z = SAMPLE_TEXTURE2D_SHADOW(shadowMap, shadowCoord2);
    attenuation4.w = SAMPLE_TEXTURE2D_SHADOW(shadowMap, shadowCoord3);
    attenuation = dot(attenuation4, vec4(0.25));
    return attenuation;
}

void main() {
    v_uv = TEXCOORD_0;
    vec4 tmp = renderer_MVMat * POSITION;
    float t = sampleShadowMapFiltered4(scene_ShadowMap, vec3(1.0), vec4(1.0));
    v_position = tmp.xyz;
    gl_Position = renderer_MVPMat * POSITION;
}

// fragment
out vec4 GS_glFragColor;

in vec2 v_uv;
in vec3 v_position;

uniform sampler2D material_BaseTexture;
uniform vec4 u_color;
uniform vec4 u_fogColor;
uniform float u_fogDensity;

vec4 linearToGamma(vec4 linearIn) {
    return vec4(pow(linearIn.rgb, vec3(1.0 / 2.2)), linearIn.a);
}

#define SCENE_SHADOW_TYPE 3

#if defined(SCENE_SHADOW_TYPE) && defined(RENDERER_IS_RECEIVE_SHADOWS)
#define SCENE_IS_CALCULATE_SHADOWS
#endif

#define xxx

#ifdef xxx
#define SAMPLE_TEXTURE2D_SHADOW(textureName, coord3) textureLod(textureName, coord3 , 0.0)
#define TEXTURE2D_SHADOW_PARAM(shadowMap) mediump sampler2DShadow shadowMap
#endif

void main() {
    vec4 color = texture(material_BaseTexture, v_uv) * u_color;
    float fogDistance = length(v_position);
    float fogAmount = 1.0 - exp2(-u_fogDensity * u_fogDensity * fogDistance * fogDistance * 1.442695);
    fogAmount = clamp(fogAmount, 0.0, 1.0);
    GS_glFragColor = mix(color, u_fogColor, fogAmount);
    GS_glFragColor = linearToGamma(GS_glFragColor);
#if SCENE_SHADOW_TYPE == 2 || defined(XX_Macro)
    GS_glFragColor = linearToGamma(GS_glFragColor);
#elif SCENE_SHADOW_TYPE == 3
    GS_glFragColor = linearToGamma(GS_glFragColor);
#else
    GS_glFragColor = vec4(1.0, 1.0, 0.0, 0.0);
#endif
#undef SCENE_SHADOW_TYPE
#ifndef SCENE_SHADOW_TYPE
    GS_glFragColor = linearToGamma(GS_glFragColor);
#else
    GS_glFragColor = vec4(1.0, 1.0, 0.0, 0.0);
#endif
#ifdef SCENE_SHADOW_TYPE
    GS_glFragColor = vec4(1.0, 1.0, 0.0, 0.0);
#endif
}
