// Found by fuzz_expand (seed 12): a `#define` whose body holds a character outside GLSL's character set (here a
// no-break space, U+00A0, between the name and the value) was accepted without a diagnostic in preserving mode,
// and the preserving output carried it to the driver. Expanding that output for a variant then failed with
// InvalidMacroCondition at the `#if` that uses the macro. Now the character is an UnexpectedToken error at the
// `#define`, in every mode.
Shader "Regression/InvalidCharInDefine" {
  SubShader "Default" {
    Pass "P" {
      mat4 renderer_MVPMat;
      struct Attributes { vec4 POSITION; };
      #define SHADOW_KIND 3
      void vert(Attributes a) {
        gl_Position = renderer_MVPMat * a.POSITION;
      }
      void frag() {
#if SHADOW_KIND == 3 || defined(USE_RED)
        gl_FragColor = vec4(1.0, 0.0, 0.0, 1.0);
#else
        gl_FragColor = vec4(0.0);
#endif
      }
      VertexShader = vert;
      FragmentShader = frag;
    }
  }
}
