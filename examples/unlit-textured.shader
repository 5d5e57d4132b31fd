// An unlit shader: base color times an optional base texture, with an optional alpha cutoff.
Shader "Examples/UnlitTextured" {
  Editor {
    Properties {
      material_BaseColor("Base Color", Color) = (1, 1, 1, 1);
      material_BaseTexture("Base Texture", Texture2D);
      material_AlphaCutoff("Alpha Cutoff", Range(0, 1, 0.01)) = 0.5;
    }
  }

  SubShader "Default" {
    Tags { replacementTag = "Opaque" }

    Pass "Forward" {
      Tags { pipelineStage = "Forward" }

      RenderQueueType = Opaque;

      mat4 renderer_MVPMat;
      vec4 material_BaseColor;
      vec4 material_TilingOffset;

      #ifdef MATERIAL_HAS_BASETEXTURE
        sampler2D material_BaseTexture;
      #endif

      #ifdef MATERIAL_IS_ALPHA_CUTOFF
        float material_AlphaCutoff;
      #endif

      struct Attributes {
        vec4 POSITION;
        vec2 TEXCOORD_0;
      };

      struct Varyings {
        vec2 uv;
      };

      Varyings vert(Attributes attr) {
        Varyings v;
        gl_Position = renderer_MVPMat * attr.POSITION;
        v.uv = attr.TEXCOORD_0 * material_TilingOffset.xy + material_TilingOffset.zw;
        return v;
      }

      void frag(Varyings v) {
        vec4 color = material_BaseColor;

        #ifdef MATERIAL_HAS_BASETEXTURE
          vec4 texel = texture2D(material_BaseTexture, v.uv);
          #ifndef ENGINE_IS_COLORSPACE_GAMMA
            texel.rgb = pow(texel.rgb, vec3(2.2));
          #endif
          color *= texel;
        #endif

        #ifdef MATERIAL_IS_ALPHA_CUTOFF
          if (color.a < material_AlphaCutoff) {
            discard;
          }
        #endif

        gl_FragColor = color;
      }

      VertexShader = vert;
      FragmentShader = frag;
    }
  }
}
