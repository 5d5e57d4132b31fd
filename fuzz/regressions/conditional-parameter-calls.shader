// Found by shaderlab-fuzz (generator, property 1). Valid in every variant: inside `#ifdef USE_BIAS` the call
// passes the USE_BIAS-only parameter, inside `#else` it leaves it out. A preserving check must report nothing;
// shaderlab reports NoMatchingOverload at both calls ("in variants where USE_BIAS is defined" /
// "... is not defined"). It accepts only calls whose argument repeats the parameter's own region.
Shader "Regression/ConditionalParameterCalls" {
  SubShader "Default" {
    Pass "P" {
      mat4 renderer_MVPMat;
      struct Attributes { vec4 POSITION; };
      float scale(float a
#ifdef USE_BIAS
      , float bias
#endif
      ) {
#ifdef USE_BIAS
        return a + bias;
#else
        return a;
#endif
      }
      void vert(Attributes attr) {
        gl_Position = renderer_MVPMat * attr.POSITION;
      }
      void frag() {
        float x = 1.0;
#ifdef USE_BIAS
        x = scale(x, 0.5);
#else
        x = scale(x);
#endif
        gl_FragColor = vec4(x);
      }
      VertexShader = vert;
      FragmentShader = frag;
    }
  }
}
