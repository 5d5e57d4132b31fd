// Found by shaderlab-fuzz (generator, property 1 with contextual arguments off). Valid in every variant: the
// inner `#ifdef USE_FOG` region is dead (it sits inside `#ifndef USE_FOG`), so no variant compiles it. A
// preserving check must report nothing; shaderlab reports UndeclaredIdentifier for `fogAmount` with the
// notes "declared only in variants that exclude this use" and "in variants where USE_FOG is not defined and
// USE_FOG is defined" (a condition no variant satisfies).
Shader "Regression/DeadRegion" {
  SubShader "Default" {
    Pass "P" {
      mat4 renderer_MVPMat;
      struct Attributes { vec4 POSITION; };
      void vert(Attributes attr) {
        gl_Position = renderer_MVPMat * attr.POSITION;
      }
      void frag() {
        float x = 1.0;
#ifndef USE_FOG
        float fogAmount = 0.5;
        x = fogAmount;
#ifdef USE_FOG
        x = fogAmount * 2.0;
#endif
#endif
        gl_FragColor = vec4(x);
      }
      VertexShader = vert;
      FragmentShader = frag;
    }
  }
}
