// All-variants fixture: three macros (A and B tested for definition, C compared with 1 and 2), an include
// guard, a driver name (GL_) and a derived flag the source defines itself: only A, B and C are varied.
Shader "AllVariants/ThreeMacros" {
  SubShader "Default" {
    Pass "P" {
      #include "ThreeCommon.glsl"

      #if defined(A) || defined(B)
        #define DERIVED_FLAG
      #endif

      mat4 renderer_MVPMat;
      struct Attributes { vec4 POSITION; };
      struct Varyings { vec2 uv; };

      Varyings vert(Attributes a) {
        Varyings o;
        o.uv = a.POSITION.xy;
        gl_Position = renderer_MVPMat * a.POSITION;
        return o;
      }

      void frag(Varyings v) {
        float x = v.uv.x;
        if (x > 0.0);
        #ifdef A
          #ifndef B
            x += onlyWithAWithoutB;
          #endif
        #endif
        #if C == 1
          x += 0.5;
        #elif C == 2
          x += float(1 << 40);
        #endif
        #ifdef DERIVED_FLAG
          x += 1.0 / 0.0;
        #endif
        #ifdef GL_OES_standard_derivatives
          x += dFdx(x);
        #endif
        gl_FragColor = vec4(x * commonScale());
      }

      VertexShader = vert;
      FragmentShader = frag;
    }
  }
}
