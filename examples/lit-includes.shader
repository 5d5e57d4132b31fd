// A simple lit shader built from include chunks (examples/includes), with variant macros throughout:
// around globals, struct members, statements, function parameters and call arguments.
Shader "Examples/LitIncludes" {
  SubShader "Default" {
    Pass "Forward" {
      Tags { pipelineStage = "Forward" }

      #include "ExampleCommon.glsl"
      #include "ExampleLighting.glsl"

      #define SHADOW_STRENGTH 0.6

      vec4 material_BaseColor;
      #ifdef USE_SPECULAR
        float material_Shininess;
      #endif
      #ifdef MATERIAL_HAS_BASETEXTURE
        sampler2D material_BaseTexture;
      #endif

      struct Attributes {
        vec4 POSITION;
        vec3 NORMAL;
        #ifdef MATERIAL_HAS_BASETEXTURE
          vec2 TEXCOORD_0;
        #endif
      };

      struct Varyings {
        vec3 positionWS;
        vec3 normalWS;
        #ifdef MATERIAL_HAS_BASETEXTURE
          vec2 uv;
        #endif
      };

      Varyings vert(Attributes attr) {
        Varyings v;
        gl_Position = renderer_MVPMat * attr.POSITION;
        v.positionWS = (renderer_ModelMat * attr.POSITION).xyz;
        v.normalWS = normalize(mat3(renderer_NormalMat) * attr.NORMAL);
        #ifdef MATERIAL_HAS_BASETEXTURE
          v.uv = attr.TEXCOORD_0;
        #endif
        return v;
      }

      void frag(Varyings v) {
        SurfaceData surface;
        surface.position = v.positionWS;
        surface.normal = normalize(v.normalWS);
        surface.albedo = gammaToLinear(material_BaseColor.rgb);
        #ifdef MATERIAL_HAS_BASETEXTURE
          surface.albedo *= gammaToLinear(texture2D(material_BaseTexture, v.uv).rgb);
        #endif
        #ifdef USE_SPECULAR
          surface.shininess = material_Shininess;
          vec3 viewDirection = normalize(camera_Position - v.positionWS);
        #endif

        vec3 color = scene_AmbientColor * surface.albedo;
        color += shadeLight(surface, scene_LightDirection, scene_LightColor
          #ifdef USE_SPECULAR
            , viewDirection
          #endif
        );

        #if LIGHT_COUNT == 2
          color += shadeLight(surface, scene_SecondLightDirection, scene_SecondLightColor
            #ifdef USE_SPECULAR
              , viewDirection
            #endif
          );
        #else
          color *= 1.0 - SHADOW_STRENGTH * pow2(1.0 - lambert(surface.normal, scene_LightDirection));
        #endif

        gl_FragColor = linearToGamma(vec4(color, material_BaseColor.a));
      }

      VertexShader = vert;
      FragmentShader = frag;
    }
  }
}
