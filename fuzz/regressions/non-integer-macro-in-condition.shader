// Found by fuzz_expand (seed 5, session 9): a macro defined outside any conditional with a value that is not an
// integer expression (`;3`), tested by `#if`, passed the preserving check without a diagnostic (preserving mode
// did not evaluate conditions at all), while expanding the preserving output for a variant reported
// InvalidMacroCondition at that `#if`. The preserving check now evaluates a condition with the definitions every
// variant reaching it shares, and reports the first `#if` below. The other three conditions are invalid only in
// some variants (a conditional definition, a short-circuit, an `#elif` read only when `#ifdef` fails): the
// preserving check stays silent on them and the variant checks report them.
Shader "Regression/NonIntegerMacroInCondition" {
  SubShader "Default" {
    Pass "P" {
      mat4 renderer_MVPMat;
      struct Attributes { vec4 POSITION; };
      #define SCENE_SHADOW_TYPE ;3
      #ifdef USE_SHADOW
      #define SHADOW_LEVEL ;3
      #endif
      void vert(Attributes a) {
        gl_Position = renderer_MVPMat * a.POSITION;
      }
      void frag() {
        vec4 color = vec4(1.0);
#if SCENE_SHADOW_TYPE == 2
        color.r = 0.5;
#endif
#if SHADOW_LEVEL == 2
        color.g = 0.5;
#endif
#if defined(USE_FOG) && SCENE_SHADOW_TYPE == 2
        color.b = 0.5;
#endif
#ifdef USE_FOG
        color.a = 0.5;
#elif SCENE_SHADOW_TYPE == 3
        color.a = 0.25;
#endif
        gl_FragColor = color;
      }
      VertexShader = vert;
      FragmentShader = frag;
    }
  }
}
