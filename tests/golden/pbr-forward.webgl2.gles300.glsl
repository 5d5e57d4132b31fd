// vertex
uniform mat4 renderer_ModelMat;
uniform mat4 renderer_MVPMat;

in vec3 POSITION;

out vec2 uv;
out vec3 positionWS;

struct VertexInputs {
    vec4 positionOS;
    vec3 positionWS;
};

uniform vec4 material_TilingOffset;

vec2 getUV0() {
    vec2 uv0 = vec2(0);
    return uv0 * material_TilingOffset.xy + material_TilingOffset.zw;
}

VertexInputs getVertexInputs() {
    VertexInputs inputs;
    vec4 position = vec4(POSITION, 1.0);
    inputs.positionOS = position;
    vec4 positionWS = renderer_ModelMat * position;
    inputs.positionWS = positionWS.xyz / positionWS.w;
    return inputs;
}

void main() {
    uv = getUV0();
    VertexInputs vertexInputs = getVertexInputs();
    positionWS = vertexInputs.positionWS;
    gl_Position = renderer_MVPMat * vertexInputs.positionOS;
}

// fragment
out vec4 GS_glFragColor;

float pow2(float x) {
    return x * x;
}

uniform vec3 camera_Position;
uniform vec4 camera_ProjectionParams;

in vec2 uv;
in vec3 positionWS;

struct SurfaceData {
    vec3 albedoColor;
    vec3 emissiveColor;
    float metallic;
    float roughness;
    float ambientOcclusion;
    float opacity;
    float IOR;
    vec3 position;
    vec3 normal;
    vec3 viewDir;
    float dotNV;
    float specularIntensity;
    vec3 specularColor;
};

struct BSDFData {
    vec3 diffuseColor;
    float roughness;
    vec3 envSpecularDFG;
    float diffuseAO;
    vec3 specularF0;
    float specularF90;
};

float getAARoughnessFactor(vec3 normal) {
    vec3 dxy = max(abs(dFdx(normal)), abs(dFdy(normal)));
    return max(max(dxy.x, dxy.y), dxy.z);
}

vec3 BRDF_Diffuse_Lambert(vec3 diffuseColor) {
    return 0.31830988618 * diffuseColor;
}

vec3 envBRDFApprox(vec3 f0, float f90, float roughness, float dotNV) {
    const vec4 c0 = vec4(-1, -0.0275, -0.572, 0.022);
    const vec4 c1 = vec4(1, 0.0425, 1.04, -0.04);
    vec4 r = roughness * c0 + c1;
    float a004 = min(r.x * r.x, exp2(-9.28 * dotNV)) * r.x + r.y;
    vec2 AB = vec2(-1.04, 1.04) * a004 + r.zw;
    return f0 * AB.x + f90 * AB.y;
}

void initBSDFData(SurfaceData surfaceData, out BSDFData bsdfData) {
    vec3 albedoColor = surfaceData.albedoColor;
    float metallic = surfaceData.metallic;
    float roughness = surfaceData.roughness;
    vec3 dielectricBaseF0 = vec3(pow2((surfaceData.IOR - 1.0) / (surfaceData.IOR + 1.0)));
    vec3 dielectricF0 = min(dielectricBaseF0 * surfaceData.specularColor, vec3(1.0)) * surfaceData.specularIntensity;
    float dielectricF90 = surfaceData.specularIntensity;
    bsdfData.specularF0 = mix(dielectricF0, albedoColor, metallic);
    bsdfData.specularF90 = mix(dielectricF90, 1.0, metallic);
    bsdfData.diffuseColor = albedoColor * (1.0 - metallic) * (1.0 - max(max(dielectricF0.r, dielectricF0.g), dielectricF0.b));
    bsdfData.roughness = max(0.045, min(roughness + getAARoughnessFactor(surfaceData.normal), 1.0));
    bsdfData.envSpecularDFG = envBRDFApprox(bsdfData.specularF0, bsdfData.specularF90, bsdfData.roughness, surfaceData.dotNV);
    bsdfData.diffuseAO = surfaceData.ambientOcclusion;
}

struct EnvMapLight {
    vec3 diffuse;
    float mipMapLevel;
    float diffuseIntensity;
    float specularIntensity;
};

uniform EnvMapLight scene_EnvMapLight;

void evaluateDirectRadiance(SurfaceData surfaceData, BSDFData bsdfData, float shadowAttenuation, inout vec3 totalDiffuseColor, inout vec3 totalSpecularColor) {
}

vec3 getLightProbeRadiance(SurfaceData surfaceData, vec3 normal, float roughness) {
    return vec3(0);
}

float evaluateSpecularOcclusion(float dotNV, float diffuseAO, float roughness) {
    float specularAOFactor = 1.0;
    return specularAOFactor;
}

void evaluateDiffuseIBL(SurfaceData surfaceData, BSDFData bsdfData, inout vec3 diffuseColor) {
    vec3 irradiance = scene_EnvMapLight.diffuse * scene_EnvMapLight.diffuseIntensity;
    irradiance *= 3.14159265359;
    diffuseColor += bsdfData.diffuseAO * irradiance * BRDF_Diffuse_Lambert(bsdfData.diffuseColor);
}

float evaluateClearCoatIBL(SurfaceData surfaceData, BSDFData bsdfData, inout vec3 specularColor) {
    float radianceAttenuation = 1.0;
    return radianceAttenuation;
}

void evaluateSpecularIBL(SurfaceData surfaceData, BSDFData bsdfData, float radianceAttenuation, inout vec3 outSpecularColor) {
    vec3 radiance = getLightProbeRadiance(surfaceData, surfaceData.normal, bsdfData.roughness);
    vec3 speculaColor = bsdfData.specularF0;
    float specularAO = evaluateSpecularOcclusion(surfaceData.dotNV, bsdfData.diffuseAO, bsdfData.roughness);
    outSpecularColor += specularAO * radianceAttenuation * radiance * envBRDFApprox(speculaColor, bsdfData.specularF90, bsdfData.roughness, surfaceData.dotNV);
}

void evaluateSheenIBL(SurfaceData surfaceData, BSDFData bsdfData, float radianceAttenuation, inout vec3 diffuseColor, inout vec3 specularColor) {
}

void evaluateIBL(SurfaceData surfaceData, BSDFData bsdfData, inout vec3 totalDiffuseColor, inout vec3 totalSpecularColor) {
    vec3 diffuseColor = vec3(0);
    vec3 specularColor = vec3(0);
    evaluateDiffuseIBL(surfaceData, bsdfData, diffuseColor);
    float radianceAttenuation = evaluateClearCoatIBL(surfaceData, bsdfData, specularColor);
    evaluateSpecularIBL(surfaceData, bsdfData, radianceAttenuation, specularColor);
    evaluateSheenIBL(surfaceData, bsdfData, radianceAttenuation, diffuseColor, specularColor);
    totalDiffuseColor += diffuseColor;
    totalSpecularColor += specularColor;
}

uniform vec4 material_BaseColor;
uniform float material_Metal;
uniform float material_Roughness;
uniform float material_IOR;
uniform vec3 material_EmissiveColor;
uniform float material_SpecularIntensity;
uniform vec3 material_SpecularColor;

SurfaceData getSurfaceData(vec2 aoUV, bool isFrontFacing) {
    SurfaceData surfaceData;
    vec2 uv_1 = uv;
    vec4 baseColor = material_BaseColor;
    float metallic = material_Metal;
    float roughness = material_Roughness;
    vec3 emissiveRadiance = material_EmissiveColor;
    surfaceData.albedoColor = baseColor.rgb;
    surfaceData.emissiveColor = emissiveRadiance;
    surfaceData.metallic = metallic;
    surfaceData.roughness = roughness;
    surfaceData.IOR = material_IOR;
    surfaceData.opacity = 1.0;
    surfaceData.position = positionWS;
    surfaceData.viewDir = normalize(camera_Position - positionWS);
    vec3 pos_dx = dFdx(positionWS);
    vec3 pos_dy = dFdy(positionWS);
    vec3 normal = normalize(cross(pos_dx, pos_dy));
    normal *= camera_ProjectionParams.x;
    normal *= float(isFrontFacing) * 2.0 - 1.0;
    surfaceData.normal = normal;
    surfaceData.dotNV = clamp(dot(surfaceData.normal, surfaceData.viewDir), 0.0, 1.0);
    surfaceData.specularIntensity = material_SpecularIntensity;
    surfaceData.specularColor = material_SpecularColor;
    surfaceData.ambientOcclusion = 1.0;
    return surfaceData;
}

void main() {
    BSDFData bsdfData;
    vec2 aoUV = uv;
    SurfaceData surfaceData = getSurfaceData(aoUV, gl_FrontFacing);
    initBSDFData(surfaceData, bsdfData);
    vec3 totalDiffuseColor = vec3(0, 0, 0);
    vec3 totalSpecularColor = vec3(0, 0, 0);
    float shadowAttenuation = 1.0;
    evaluateDirectRadiance(surfaceData, bsdfData, shadowAttenuation, totalDiffuseColor, totalSpecularColor);
    evaluateIBL(surfaceData, bsdfData, totalDiffuseColor, totalSpecularColor);
    vec4 color = vec4((totalDiffuseColor + totalSpecularColor).rgb, surfaceData.opacity);
    color.rgb += surfaceData.emissiveColor;
    GS_glFragColor = color;
}
