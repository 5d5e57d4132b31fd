Shader "Guarded" {
  SubShader "Default" {
    Pass "P" {
      #ifdef A
      #define OUTER_INCLUDED
      #endif
      #include "Outer.glsl"
      #include "Helper.glsl"
      mat4 renderer_MVPMat;
      struct Attributes { vec4 POSITION; };
      struct Varyings { vec2 uv; };
      Varyings vert(Attributes a) {
        Varyings o;
        o.uv = a.POSITION.xy * helper(1.0);
        gl_Position = renderer_MVPMat * a.POSITION;
        return o;
      }
      void frag(Varyings v) {
        gl_FragColor = vec4(v.uv, 0.0, 1.0);
      }
      VertexShader = vert;
      FragmentShader = frag;
    }
  }
}
