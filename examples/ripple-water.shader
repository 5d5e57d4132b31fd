// Animated water: a vertex wave sum in a loop, a fog factor chosen by variant macros (#if / #elif on macro values).
Shader "Examples/RippleWater" {
  Editor {
    Properties {
      material_WaterColor("Water Color", Color) = (0.1, 0.3, 0.5, 0.8);
      material_WaveScale("Wave Scale", Float) = 0.2;
    }
  }

  SubShader "Default" {
    Tags { replacementTag = "Transparent" }

    Pass "Water" {
      BlendState = {
        Enabled = true;
        SourceColorBlendFactor = BlendFactor.SourceAlpha;
        DestinationColorBlendFactor = BlendFactor.OneMinusSourceAlpha;
      }
      DepthState = {
        WriteEnabled = false;
      }
      RenderQueueType = Transparent;

      #define WAVE_COUNT 4
      #define FOG_LINEAR 1
      #define FOG_EXP2 2

      mat4 renderer_MVPMat;
      vec4 scene_ElapsedTime;
      vec4 material_WaterColor;
      float material_WaveScale;
      #ifdef SCENE_FOG_MODE
        vec4 scene_FogColor;
        vec4 scene_FogParams;
      #endif

      struct Attributes {
        vec4 POSITION;
        vec2 TEXCOORD_0;
      };

      struct Varyings {
        vec2 uv;
        float height;
        float viewDepth;
      };

      float waveHeight(vec2 p, float time) {
        float h = 0.0;
        float amplitude = 1.0;
        for (int i = 0; i < WAVE_COUNT; i++) {
          float angle = float(i) * 1.3;
          vec2 direction = vec2(cos(angle), sin(angle));
          float phase = dot(direction, p) * float(i + 1) + time * (1.0 + 0.3 * float(i));
          h += amplitude * sin(phase);
          amplitude *= 0.5;
        }
        return h;
      }

      float fogFactor(float depth) {
        float factor = 1.0;
        #if SCENE_FOG_MODE == FOG_LINEAR
          factor = clamp((scene_FogParams.y - depth) * scene_FogParams.x, 0.0, 1.0);
        #elif SCENE_FOG_MODE == FOG_EXP2
          float d = depth * scene_FogParams.z;
          factor = exp2(-d * d);
        #endif
        return factor;
      }

      Varyings vert(Attributes attr) {
        Varyings v;
        vec4 position = attr.POSITION;
        v.height = waveHeight(position.xz, scene_ElapsedTime.x);
        position.y += v.height * material_WaveScale;
        gl_Position = renderer_MVPMat * position;
        v.uv = attr.TEXCOORD_0;
        v.viewDepth = gl_Position.w;
        return v;
      }

      vec4 frag(Varyings v) {
        float foam = smoothstep(0.6, 1.0, v.height);
        vec4 color = vec4(mix(material_WaterColor.rgb, vec3(1.0), foam), material_WaterColor.a);
        #ifdef SCENE_FOG_MODE
          color.rgb = mix(scene_FogColor.rgb, color.rgb, fogFactor(v.viewDepth));
        #endif
        return color;
      }

      VertexShader = vert;
      FragmentShader = frag;
    }
  }
}
