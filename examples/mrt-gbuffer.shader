// A G-buffer pass writing three render targets through an MRT output struct.
Shader "Examples/GBuffer" {
  SubShader "Default" {
    Tags { pipelineStage = "Forward" }

    Pass "GBuffer" {
      DepthState = {
        Enabled = true;
        WriteEnabled = true;
        CompareFunction = CompareFunction.Less;
      }
      BlendState = {
        Enabled[0] = false;
      }

      mat4 renderer_MVPMat;
      mat4 renderer_ModelMat;
      mat4 renderer_NormalMat;
      vec4 material_BaseColor;
      float material_Roughness;
      float material_Metal;

      struct Attributes {
        vec3 POSITION;
        vec3 NORMAL;
        vec2 TEXCOORD_0;
      };

      struct Varyings {
        vec3 positionWS;
        vec3 normalWS;
        vec2 uv;
      };

      struct GBufferOutput {
        layout(location = 0) vec4 albedo;
        layout(location = 1) vec4 normalRoughness;
        layout(location = 2) vec4 positionMetal;
      };

      vec2 encodeNormal(vec3 n);

      Varyings vert(Attributes attr) {
        Varyings v;
        vec4 position = vec4(attr.POSITION, 1.0);
        gl_Position = renderer_MVPMat * position;
        v.positionWS = (renderer_ModelMat * position).xyz;
        v.normalWS = (renderer_NormalMat * vec4(attr.NORMAL, 0.0)).xyz;
        v.uv = attr.TEXCOORD_0;
        return v;
      }

      GBufferOutput frag(Varyings v) {
        GBufferOutput o;
        vec3 n = normalize(v.normalWS);
        float checker = mod(floor(v.uv.x * 8.0) + floor(v.uv.y * 8.0), 2.0);
        o.albedo = vec4(material_BaseColor.rgb * mix(0.8, 1.0, checker), 1.0);
        o.normalRoughness = vec4(encodeNormal(n), material_Roughness, 1.0);
        o.positionMetal = vec4(v.positionWS, material_Metal);
        return o;
      }

      // Octahedral encoding of a unit vector into [0, 1]^2.
      vec2 encodeNormal(vec3 n) {
        n /= abs(n.x) + abs(n.y) + abs(n.z);
        vec2 e = n.xy;
        if (n.z < 0.0) {
          e = (1.0 - abs(n.yx)) * vec2(n.x >= 0.0 ? 1.0 : -1.0, n.y >= 0.0 ? 1.0 : -1.0);
        }
        return e * 0.5 + 0.5;
      }

      VertexShader = vert;
      FragmentShader = frag;
    }
  }
}
